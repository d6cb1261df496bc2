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

package startup

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/tests/integration/golden"
)

// binaries are the commands this repository ships: kops, channels, and every operator of the
// registry.
var binaries = func() []string {
	out := []string{"kops", "channels"}
	for _, o := range addons.Operators() {
		out = append(out, strings.TrimPrefix(o.Binary, "./cmd/"))
	}
	return out
}()

// neverLinked are packages no shipped binary may link: test libraries, and client-go's typed
// clientset and discovery client, which link every built-in API group (they doubled kops's
// start-up once; see TestCommandsLinkNoTypedClientset).
var neverLinked = []string{
	"github.com/stretchr/testify",
	"k8s.io/client-go/kubernetes",
	"k8s.io/client-go/discovery",
}

// linkedOnlyBy are libraries only some binaries need, keyed by the packages' prefixes: every other
// binary would pay their package initialisation at each start for nothing.
//   - The AWS SDK for Go v2: the s3:// state store (util/pkg/vfs/s3store) runs on it, so the commands
//     that read s3:// stores link it; kops also takes IAM ARN partitions from its tables
//     (util/pkg/aws/awspartition). The operators read no bucket.
//   - hclwrite, with the rest of HCL, go-cty and go-cmp that it brings: it writes kubernetes.tf for
//     `kops update cluster --target terraform` (upup/pkg/fi/cloudup/terraform).
//   - What confines an operator (its roles, admission policies, CRD and package check), and kops's
//     model builders with every addon's kopsmodel (found by kopsModels, not listed): kops generates
//     them; an operator runs on the shared runtime (pkg/operator, pkg/operator/manager) and its
//     addon's renderer only.
var linkedOnlyBy = map[string][]string{
	"k8s.io/kops/pkg/operator/confine": {"kops"},
	"k8s.io/kops/pkg/crdschema":        {"kops"},
	"k8s.io/kops/pkg/model":            {"kops"},
	"github.com/aws/aws-sdk-go-v2":     {"kops", "channels"},
	"github.com/aws/smithy-go":         {"kops", "channels"},
	"github.com/hashicorp/hcl":         {"kops"},
	"github.com/zclconf/go-cty":        {"kops"},
	"github.com/google/go-cmp":         {"kops"},
}

// forbidden is what binary b may not link.
func forbidden(t *testing.T, b string) []string {
	out := slices.Clone(neverLinked)
	for prefix, binaries := range linkedOnlyBy {
		if !slices.Contains(binaries, b) {
			out = append(out, prefix)
		}
	}
	if b != "kops" {
		out = append(out, kopsModels(t)...)
	}
	return out
}

// TestLinkedPackages: every package outside the standard library that a shipped binary links is
// listed in testdata/<binary>.txt, so a new one (and what it initialises at every start) is a
// decision a reviewer reads in the diff. hack/update-expected.sh rewrites the lists
// (UPDATE_EXPECTED=1); a package that is gone must leave its list too, so the lists stay exact.
func TestLinkedPackages(t *testing.T) {
	for _, b := range binaries {
		t.Run(b, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./cmd/"+b)
			cmd.Dir = repo
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			deps := strings.Fields(string(out))
			require.Contains(t, deps, "k8s.io/kops/cmd/"+b, "the listing is the real one")
			slices.Sort(deps)
			for _, d := range deps {
				for _, never := range forbidden(t, b) {
					assert.False(t, d == never || strings.HasPrefix(d, never+"/"), "%s links %s", b, d)
				}
			}
			golden.Check(t, filepath.Join("testdata", b), map[string]string{b + ".txt": strings.Join(deps, "\n") + "\n"})
		})
	}
}

// TestListsAreOfBinaries: testdata holds one list per shipped binary and nothing else, so the list
// of a binary that was removed or renamed does not stay behind unchecked.
func TestListsAreOfBinaries(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, e.Name())
	}
	assert.ElementsMatch(t, binaries, dirs,
		"testdata/ must hold exactly one directory per shipped binary: remove the lists of binaries that are gone, and run hack/update-expected.sh for new ones")
}

// kopsModels are the kops-side packages of every addon folder, pkg/addons/<name>/kopsmodel.
func kopsModels(t *testing.T) []string {
	dirs, err := filepath.Glob(filepath.Join(repo, addonsRoot, "*", "kopsmodel"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "the addon folders are found")
	var out []string
	for _, d := range dirs {
		rel, err := filepath.Rel(repo, d)
		require.NoError(t, err)
		out = append(out, "k8s.io/kops/"+filepath.ToSlash(rel))
	}
	return out
}
