// Package startup holds the tests that keep every command's start-up small: nothing heavy is built
// at package initialisation in production code (lazy_test.go), and each binary links only the
// packages listed in testdata (linked_test.go), so a new dependency is a reviewed decision.
package startup
