//go:build !unix

package vfs

import "fmt"

// Lock is not implemented where flock(2) is missing; writes that need it fail rather than race.
func (p fsPath) Lock() (func(), error) {
	return nil, fmt.Errorf("locking %s: not supported on this platform", p)
}
