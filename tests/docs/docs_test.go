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
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const repo = "../.."

// TestLinksResolve: every relative link of README.md and docs/ names a file of the repository
// and, with an anchor, one of its headings.
func TestLinksResolve(t *testing.T) {
	links, err := Links(repo)
	require.NoError(t, err)
	require.NotEmpty(t, links)
	for _, l := range links {
		assert.NoError(t, Resolve(repo, l))
	}
}

var makeTarget = regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+):([^=]|$)`)

// TestDocumentedMakeTargetsScriptsAndPackagesExist: every `make` target the documentation names is
// a target of the Makefile, every hack/ script it runs is there and executable, and every package
// folder it gives `go test` exists where the command runs.
func TestDocumentedMakeTargetsScriptsAndPackagesExist(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(repo, "Makefile"))
	require.NoError(t, err)
	targets := map[string]bool{}
	for _, m := range makeTarget.FindAllStringSubmatch(string(makefile), -1) {
		targets[m[1]] = true
	}
	cmds, err := Commands(repo, "make")
	require.NoError(t, err)
	checked := 0
	for _, c := range cmds {
		switch prog := c.Args[0]; {
		case prog == "make":
			for _, a := range c.Args[1:] {
				if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
					assert.True(t, targets[a], "%s: the Makefile has no target %q", c.Where(), a)
					checked++
				}
			}
		case strings.HasPrefix(prog, "./hack/") || strings.HasPrefix(prog, "hack/"):
			fi, err := os.Stat(filepath.Join(repo, c.Dir, prog))
			if assert.NoError(t, err, c.Where()) {
				assert.NotZero(t, fi.Mode()&0o111, "%s: not executable", c.Where())
			}
			checked++
		case prog == "go" && len(c.Args) > 1 && c.Args[1] == "test":
			for _, a := range c.Args[2:] {
				if strings.HasPrefix(a, "./") {
					dir := strings.TrimSuffix(strings.TrimSuffix(a, "..."), "/")
					_, err := os.Stat(filepath.Join(repo, c.Dir, dir))
					assert.NoError(t, err, "%s: no package folder %s", c.Where(), a)
					checked++
				}
			}
		}
	}
	assert.NotZero(t, checked, "the documentation names no make target, script or package: the extraction is broken")
}

func TestWords(t *testing.T) {
	cases := []struct {
		line string
		want [][]string
	}{
		{`kops edit cluster a.k8s.local   # e.g. spec.kubeDNS.provider`, [][]string{{"kops", "edit", "cluster", "a.k8s.local"}}},
		{`KOPS_FEATURE_FLAGS="ClusterAddons,UseOperators" kops get clusters`, [][]string{{"KOPS_FEATURE_FLAGS=ClusterAddons,UseOperators", "kops", "get", "clusters"}}},
		{`cd tf && terraform init && terraform apply`, [][]string{{"cd", "tf"}, {"terraform", "init"}, {"terraform", "apply"}}},
		{`go test -run '^$' -bench 'A|B' ./x/`, [][]string{{"go", "test", "-run", "^$", "-bench", "A|B", "./x/"}}},
		{`kubectl get pods -o json | jq -r '.items[]'`, [][]string{{"kubectl", "get", "pods", "-o", "json"}, {"jq", "-r", ".items[]"}}},
		{`echo a\ b; ls`, [][]string{{"echo", "a b"}, {"ls"}}},
		{`# only a comment`, nil},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			got, err := words(c.line)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	_, err := words(`echo 'open`)
	assert.Error(t, err)
}

func TestCommandsAndLinksOfADocument(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	readme := "# Title\n\nRun `kops get clusters` or `make test`, not `ls -l`; see [the guide](docs/guide.md#step-two-of-3).\n\n" +
		"```sh\nexport KOPS_STATE_STORE=file:///tmp/s\nKOPS_FEATURE_FLAGS=A kops create cluster x \\\n    --zones z\ncd tests/e2e\ngo test ./a/\n```\n\n" +
		"```yaml\nkops: not a command\n```\n[broken](missing.md) [outside](../x.md) [web](https://example.com) [anchor](#title)\n"
	guide := "# Guide\n\n## Step `two` (of 3)\n\n## Step `two` (of 3)\n"
	require.NoError(t, os.WriteFile(filepath.Join(root, "README.md"), []byte(readme), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "guide.md"), []byte(guide), 0o644))

	cmds, err := Commands(root, "kops", "make")
	require.NoError(t, err)
	var got []string
	for _, c := range cmds {
		got = append(got, c.Where()+" dir="+c.Dir+" flags="+c.Env["KOPS_FEATURE_FLAGS"]+" store="+c.Env["KOPS_STATE_STORE"])
	}
	assert.Equal(t, []string{
		"README.md:3: kops get clusters dir=. flags= store=",
		"README.md:3: make test dir=. flags= store=",
		"README.md:7: kops create cluster x --zones z dir=. flags=A store=file:///tmp/s",
		"README.md:9: cd tests/e2e dir=. flags= store=file:///tmp/s",
		"README.md:10: go test ./a/ dir=tests/e2e flags= store=file:///tmp/s",
	}, got)

	links, err := Links(root)
	require.NoError(t, err)
	var errs []string
	for _, l := range links {
		if err := Resolve(root, l); err != nil {
			errs = append(errs, err.Error())
		}
	}
	assert.Equal(t, []string{
		`README.md:16: link "missing.md": no such file in the repository`,
		`README.md:16: link "../x.md" leaves the repository`,
	}, errs)

	anchors, err := Anchors(filepath.Join(root, "docs", "guide.md"))
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"guide": true, "step-two-of-3": true, "step-two-of-3-1": true}, anchors)
}

// TestDocumentedPathsExist: a code span that names a path of the repository (`pkg/validation`,
// `hack/cluster.sh`) names one that exists; the repository's paths are written from its top
// folder, and nothing outside it is named as if it were there.
func TestDocumentedPathsExist(t *testing.T) {
	mentions, err := PathMentions(repo)
	require.NoError(t, err)
	require.NotEmpty(t, mentions)
	for _, m := range mentions {
		if strings.HasPrefix(m.Path, "../") {
			assert.Fail(t, "a path outside the repository", "%s:%d: %s is not in the repository", m.File, m.Line, m.Path)
			continue
		}
		_, err := os.Stat(filepath.Join(repo, strings.TrimSuffix(m.Path, "/")))
		assert.NoError(t, err, "%s:%d: %s", m.File, m.Line, m.Path)
	}
}
