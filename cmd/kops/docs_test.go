package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/tests/docs"
	"k8s.io/kops/util/pkg/vfs"
)

// TestDocumentedCommandsParse: every `kops` command line of README.md and docs/ parses against the
// command tree that the feature flags it is written with build (subcommands, flags and their
// values, argument counts), so a renamed flag or command cannot stay in the documentation.
func TestDocumentedCommandsParse(t *testing.T) {
	cmds, err := docs.Commands("../..", "kops")
	require.NoError(t, err)
	n := 0
	for _, c := range cmds {
		if c.Args[0] != "kops" {
			continue
		}
		n++
		flags, _ := featureflag.Parse(c.Env["KOPS_FEATURE_FLAGS"])
		f := &Factory{Flags: flags, Env: c.Env, In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Paths: vfs.NewContext(nil)}
		root := NewCmdRoot(f)
		if c.Span {
			assert.NoError(t, docs.Mention(root, c.Args[1:]), c.Where())
		} else {
			assert.NoError(t, docs.Parse(root, c.Args[1:]), c.Where())
		}
	}
	assert.NotZero(t, n, "the documentation shows no kops command: the extraction is broken")
}
