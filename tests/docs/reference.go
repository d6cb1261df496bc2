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
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// ReferenceDir is where the command reference lives, below the repository's root.
const ReferenceDir = "docs/cli"

// Reference renders the command reference of root: one Markdown page per command, by file name
// (kops_update_cluster.md), as cobra's doc package writes them, without its date line so that a
// page changes only with the command.
func Reference(root *cobra.Command) (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "cli-reference-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	root.DisableAutoGenTag = true
	for _, c := range all(root) {
		c.DisableAutoGenTag = true
	}
	if err := doc.GenMarkdownTree(root, dir); err != nil {
		return nil, fmt.Errorf("rendering the command reference of %s: %w", root.Name(), err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = data
	}
	return out, nil
}

func all(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, s := range c.Commands() {
		out = append(out, s)
		out = append(out, all(s)...)
	}
	return out
}

// CheckReference compares the pages of root's reference with the files under repo's ReferenceDir
// whose names start with root's name and an underscore or dot; with update it rewrites them (and
// removes pages of commands that are gone) instead. It returns one error per stale, missing or
// extra page.
func CheckReference(repo string, root *cobra.Command, update bool) []error {
	pages, err := Reference(root)
	if err != nil {
		return []error{err}
	}
	dir := filepath.Join(repo, ReferenceDir)
	existing, err := filepath.Glob(filepath.Join(dir, root.Name()+"*.md"))
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, path := range existing {
		name := filepath.Base(path)
		if _, ok := pages[name]; ok || !ownPage(root.Name(), name) {
			continue
		}
		if update {
			if err := os.Remove(path); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		errs = append(errs, fmt.Errorf("%s/%s documents a command %s no longer has: run hack/update-expected.sh", ReferenceDir, name, root.Name()))
	}
	names := make([]string, 0, len(pages))
	for name := range pages {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return append(errs, err)
			}
			if err := os.WriteFile(path, pages[name], 0o644); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		switch {
		case os.IsNotExist(err):
			errs = append(errs, fmt.Errorf("%s/%s is missing: run hack/update-expected.sh", ReferenceDir, name))
		case err != nil:
			errs = append(errs, err)
		case string(have) != string(pages[name]):
			errs = append(errs, fmt.Errorf("%s/%s differs from the command tree: run hack/update-expected.sh and read the diff", ReferenceDir, name))
		}
	}
	return errs
}

// ownPage tells whether a page under ReferenceDir is one of root's: root.md or root_*.md.
func ownPage(root, name string) bool {
	return name == root+".md" || strings.HasPrefix(name, root+"_")
}
