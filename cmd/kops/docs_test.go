/*
Copyright 2026 The kops addon operators Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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
	for _, err := range docs.Check("../..", "kops", func(env map[string]string) *cobra.Command {
		flags, _ := featureflag.Parse(env["KOPS_FEATURE_FLAGS"])
		return NewCmdRoot(&Factory{Flags: flags, Env: env, In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Paths: vfs.NewContext(nil)})
	}) {
		assert.NoError(t, err)
	}
}

// TestCommandReference: docs/cli holds one generated page per command (cobra's doc package),
// with every feature flag on so that every command and flag has its page; a page that differs from
// the tree fails, as a golden file does (UPDATE_EXPECTED=1, or hack/update-expected.sh, rewrites
// them).
func TestCommandReference(t *testing.T) {
	var names []string
	for _, d := range featureflag.Known() {
		names = append(names, string(d.Name))
	}
	flags, _ := featureflag.Parse(strings.Join(names, ","))
	root := NewCmdRoot(&Factory{Flags: flags, Env: map[string]string{}, In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Paths: vfs.NewContext(nil)})
	for _, err := range docs.CheckReference("../..", root, os.Getenv("UPDATE_EXPECTED") == "1") {
		assert.NoError(t, err)
	}
}

// TestEveryCommandHasItsLongHelp: every command that runs (no subcommands) shows a long help from
// help/, and every file there is some command's, so no text is orphaned.
func TestEveryCommandHasItsLongHelp(t *testing.T) {
	flags, _ := featureflag.Parse("ClusterAddons")
	root := NewCmdRoot(&Factory{Flags: flags, Env: map[string]string{}, In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Paths: vfs.NewContext(nil)})
	used := map[string]bool{}
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		if c.HasSubCommands() {
			for _, s := range c.Commands() {
				visit(s)
			}
		}
		if c.Long != "" {
			used[c.Long] = true
		}
		if !c.HasSubCommands() && c.Name() != "help" && c.Name() != "completion" {
			assert.NotEmpty(t, c.Long, "%s has no long help in help/", c.CommandPath())
		}
	}
	visit(root)
	files, err := helpFiles.ReadDir("help")
	require.NoError(t, err)
	for _, f := range files {
		assert.True(t, used[longHelp(strings.TrimSuffix(f.Name(), ".txt"))], "help/%s is no command's", f.Name())
	}
}
