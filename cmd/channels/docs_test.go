package main

import (
	"context"
	"io"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"

	"k8s.io/kops/tests/docs"
)

// TestDocumentedCommandsParse: every `channels` command line of README.md and docs/ parses
// against this command tree (subcommands, flags and their values, argument counts).
func TestDocumentedCommandsParse(t *testing.T) {
	for _, err := range docs.Check("../..", "channels", func(env map[string]string) *cobra.Command {
		return newRoot(context.Background(), env, io.Discard)
	}) {
		assert.NoError(t, err)
	}
}
