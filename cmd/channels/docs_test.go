package main

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/docs"
)

// TestDocumentedCommandsParse: every `channels` command line of README.md and docs/ parses
// against this command tree (subcommands, flags and their values, argument counts).
func TestDocumentedCommandsParse(t *testing.T) {
	cmds, err := docs.Commands("../..", "channels")
	require.NoError(t, err)
	n := 0
	for _, c := range cmds {
		if c.Args[0] != "channels" {
			continue
		}
		n++
		root := newRoot(context.Background(), c.Env, io.Discard)
		if c.Span {
			assert.NoError(t, docs.Mention(root, c.Args[1:]), c.Where())
		} else {
			assert.NoError(t, docs.Parse(root, c.Args[1:]), c.Where())
		}
	}
	assert.NotZero(t, n, "the documentation shows no channels command: the extraction is broken")
}
