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

package docs

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// tree is a small kops-shaped command tree: kops get {clusters,instancegroups (ig)} and
// kops validate cluster [NAME] --wait D -o FORMAT.
func tree() *cobra.Command {
	root := &cobra.Command{Use: "kops"}
	root.PersistentFlags().String("state", "", "")
	get := &cobra.Command{Use: "get", RunE: func(*cobra.Command, []string) error { return nil }}
	get.PersistentFlags().StringP("output", "o", "table", "")
	get.AddCommand(&cobra.Command{Use: "clusters", Args: cobra.MaximumNArgs(1), Run: func(*cobra.Command, []string) {}})
	get.AddCommand(&cobra.Command{Use: "instancegroups", Aliases: []string{"ig"}, Run: func(*cobra.Command, []string) {}})
	validate := &cobra.Command{Use: "validate"}
	cluster := &cobra.Command{Use: "cluster", Args: cobra.MaximumNArgs(1), Run: func(*cobra.Command, []string) {}}
	cluster.Flags().Duration("wait", 0, "")
	cluster.Flags().StringP("output", "o", "table", "")
	validate.AddCommand(cluster)
	root.AddCommand(get, validate)
	return root
}

func TestParse(t *testing.T) {
	cases := []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"get", "clusters"}, ""},
		{[]string{"get", "ig", "--state", "file:///s"}, ""},
		{[]string{"validate", "cluster", "a.k8s.local", "--wait=5m", "-o", "yaml"}, ""},
		{[]string{"--help"}, ""},
		{[]string{"get", "secrets"}, `kops get has no subcommand "secrets"`},
		{[]string{"validate", "cluster", "--count", "3"}, "unknown flag: --count"},
		{[]string{"validate", "cluster", "--wait", "soon"}, `invalid argument "soon"`},
		{[]string{"validate", "cluster", "a", "b"}, "accepts at most 1 arg(s)"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			err := Parse(tree(), c.args)
			if c.want == "" {
				assert.NoError(t, err)
			} else if assert.Error(t, err) {
				assert.Contains(t, err.Error(), c.want)
			}
		})
	}
}

func TestMention(t *testing.T) {
	cases := []struct {
		span string
		want string
	}{
		{"get [clusters|ig] [-o yaml]", ""},
		{"validate cluster", ""},
		{"validate cluster [NAME] [--wait D] [-o table|yaml|json]", ""},
		{"validate cluster --wait=5m", ""},
		{"get <resource>", ""},
		{"get [clusters|secrets]", `kops get has no subcommand "secrets"`},
		{"get clusters|ig", ""},
		{"get clusters|secrets", `kops get has no subcommand "secrets"`},
		{"get secrets", `kops get has no subcommand "secrets"`},
		{"validate cluster [--count N]", `kops validate cluster has no flag "--count"`},
		{"validate cluster -w", `has no flag "-w"`},
	}
	for _, c := range cases {
		t.Run(c.span, func(t *testing.T) {
			err := Mention(tree(), strings.Fields(c.span))
			if c.want == "" {
				assert.NoError(t, err)
			} else if assert.Error(t, err) {
				assert.Contains(t, err.Error(), c.want)
			}
		})
	}
}
