package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/tests/docs"
	"k8s.io/kops/util/pkg/vfs"
)

// TestDocumentedCommandsParse: every `kops` command line of README.md and docs/ parses against the
// command tree that the feature flags it is written with build (subcommands, flags and their
// values, argument counts), so a renamed flag or command cannot stay in the documentation.
func TestDocumentedCommandsParse(t *testing.T) {
	for _, err := range docs.Check("../..", "kops", func(env map[string]string) *cobra.Command {
		flags, _ := featureflag.Parse(env["KOPS_FEATURE_FLAGS"])
		return NewCmdRoot(&Factory{Flags: flags, Env: env, In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Paths: vfs.NewContext(nil)})
	}) {
		assert.NoError(t, err)
	}
}
