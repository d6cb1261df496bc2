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
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/kopscodecs"
)

const (
	kopsSpecsDir  = "../../tests/kops-specs"
	validationDir = "../../pkg/apis/kops/validation"
)

// buildWarnings are what this build says of any kops spec, where it does less than kops: the fields
// it keeps without modelling them, the cloud resources that only --target terraform writes, the
// launch templates of groups without a bootstrap of their own (kops's carries the kops-controller
// CA this build does not read), and Route 53 rights that need the hosted zone's ID, which kops looks
// up in the cloud.
var buildWarnings = regexp.MustCompile(`is not modeled by this build; it is kept as written` +
	`|cloud resources were not applied \(kops update cluster \S+ --target terraform` +
	`|: no launch template \S+ is written: its machines run kubelet and nothing in their user data would start it` +
	`|spec.dnsZone: dns-controller keeps the cluster's DNS records in a Route 53 hosted zone`)

// A kopsSpec is one file of tests/kops-specs with what its header says.
type kopsSpec struct {
	path     string
	families []string
	flags    string
	expect   []string
	// refused is the error update must fail with: a spec kops accepts that this build cannot take all
	// the way, whose refusal names the field and what the build lacks.
	refused string
}

var headerLine = regexp.MustCompile(`^# (families|flags|expect|refused): (.+)$`)

func readKopsSpecs(t *testing.T) []kopsSpec {
	files, err := filepath.Glob(filepath.Join(kopsSpecsDir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var specs []kopsSpec
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		s := kopsSpec{path: f}
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(line, "#") {
				break
			}
			m := headerLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			switch m[1] {
			case "families":
				for _, fam := range strings.Split(m[2], ",") {
					s.families = append(s.families, strings.TrimSpace(fam))
				}
			case "flags":
				s.flags = m[2]
			case "expect":
				s.expect = append(s.expect, m[2])
			case "refused":
				s.refused = m[2]
			}
		}
		require.NotEmpty(t, s.families, "%s: the header names no validation family", f)
		specs = append(specs, s)
	}
	return specs
}

// validationFamilies are the files of the validation package: each holds one family of rules, but
// doc.go, which holds the package comment.
func validationFamilies(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join(validationDir, "*.go"))
	require.NoError(t, err)
	var families []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") && filepath.Base(f) != "doc.go" {
			families = append(families, strings.TrimSuffix(filepath.Base(f), ".go"))
		}
	}
	require.NotEmpty(t, families)
	return families
}

// assertRefused: a spec this build cannot take all the way loads, and every update (dry run, --yes,
// --target terraform) fails with exit 1 naming what the header says, leaving the state store as
// create left it and writing no terraform; get still shows the cluster.
func assertRefused(t *testing.T, c *cli, s kopsSpec, names []string) {
	before := c.storeFiles()
	out := t.TempDir()
	for _, name := range names {
		for _, args := range [][]string{nil, {"--yes"}, {"--target", "terraform", "--out", out, "--yes"}} {
			r := c.run(append([]string{"update", "cluster", name}, args...)...)
			assert.Equal(t, 1, r.code, "update %v of a refused spec", args)
			assert.Contains(t, r.stderr, s.refused, "update %v", args)
		}
		c.mustRun("get", "cluster", name, "--full", "-o", "yaml")
	}
	assert.Equal(t, before, c.storeFiles(), "the state store is as create left it")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "no terraform is written")
}

// TestKopsSpecsLoad: every kops-shaped spec of tests/kops-specs loads as kops users keep it:
// `create -f`, `update cluster` (dry run, --yes, and for AWS --target terraform) and
// `get cluster --full` succeed, and the only warnings are the unmodeled fields and those the
// header expects. Every validation family is checked against at least one spec.
func TestKopsSpecsLoad(t *testing.T) {
	specs := readKopsSpecs(t)
	families := validationFamilies(t)
	named := map[string]bool{}
	for _, s := range specs {
		for _, fam := range s.families {
			assert.Contains(t, families, fam, "%s names a family that is no file of %s", s.path, validationDir)
			named[fam] = true
		}
	}
	for _, fam := range families {
		assert.True(t, named[fam], "validation family %q (%s/%s.go) is checked against no kops spec in %s: add one", fam, validationDir, fam, kopsSpecsDir)
	}

	for _, s := range specs {
		t.Run(filepath.Base(s.path), func(t *testing.T) {
			data, err := os.ReadFile(s.path)
			require.NoError(t, err)
			objs, _, err := kopscodecs.Decode(s.path, data, true)
			require.NoError(t, err)
			clouds := map[string]string{}
			var names []string
			for _, o := range objs {
				if o.Cluster != nil {
					names = append(names, o.Cluster.Name)
					clouds[o.Cluster.Name] = o.Cluster.Spec.CloudProvider
				}
			}
			require.NotEmpty(t, names, "the file holds a Cluster")

			c := newCLI(t)
			// Where the control plane's machines get nodeup, so that its launch template is rendered.
			c.env["NODEUP_URL_AMD64"] = "https://artifacts.example.com/kops/nodeup-linux-amd64"
			c.env["NODEUP_HASH_AMD64"] = strings.Repeat("5e", 32)
			if s.flags != "" {
				c.env["KOPS_FEATURE_FLAGS"] = s.flags
			}
			var stderr strings.Builder
			stderr.WriteString(c.mustRun("create", "-f", s.path).stderr)
			if s.refused != "" {
				assertRefused(t, c, s, names)
				return
			}
			for _, name := range names {
				stderr.WriteString(c.mustRun("update", "cluster", name).stderr)
				stderr.WriteString(c.mustRun("update", "cluster", name, "--yes").stderr)
				if clouds[name] == "aws" {
					stderr.WriteString(c.mustRun("update", "cluster", name, "--target", "terraform", "--out", t.TempDir(), "--yes").stderr)
				}
				stderr.WriteString(c.mustRun("get", "cluster", name, "--full", "-o", "yaml").stderr)
			}

			seen := make([]bool, len(s.expect))
			for _, line := range strings.Split(stderr.String(), "\n") {
				if !strings.HasPrefix(line, "W: ") || buildWarnings.MatchString(line) {
					continue
				}
				i := slices.IndexFunc(s.expect, func(e string) bool { return strings.Contains(line, e) })
				if assert.GreaterOrEqual(t, i, 0, "a warning the header does not expect: %s", line) {
					seen[i] = true
				}
			}
			for i, e := range s.expect {
				assert.True(t, seen[i], "expected warning %q was not printed:\n%s", e, stderr.String())
			}
		})
	}
}
