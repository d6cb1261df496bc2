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

package updatecluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

const clusterName = "bench.example.com"

// store is a file:// state store holding one cluster made by the kops binary.
type store struct {
	binary, dir string
}

// bootstrapEnv tells kops where the control plane's machines get nodeup, and bootstrapPart is a
// node group's own bootstrap: a group that runs kubelet gets a launch template only with one, and
// these tests and benchmarks measure a cluster whose every group has its template.
var bootstrapEnv = []string{
	"NODEUP_URL_AMD64=https://example.com/nodeup-linux-amd64",
	"NODEUP_HASH_AMD64=" + strings.Repeat("ab", 32),
}

const bootstrapPart = `  additionalUserData:
  - name: nodeup.sh
    type: text/x-shellscript
    content: "#!/bin/sh"
`

// newStore creates the cluster with `kops create cluster` (a control plane and nodes-us-east-2a,
// given its bootstrap) and, for extraGroups > 0, that many more node groups with `kops create -f`.
func newStore(tb testing.TB, binary string, extraGroups int) *store {
	s := &store{binary: binary, dir: filepath.Join(tb.TempDir(), "state")}
	s.kops(tb, "create", "cluster", clusterName, "--zones", "us-east-2a")
	nodes := filepath.Join(s.dir, clusterName, "instancegroup", "nodes-us-east-2a")
	data, err := os.ReadFile(nodes)
	require.NoError(tb, err)
	require.Regexp(tb, `\nspec:\n(  .*\n)*$`, string(data), "spec is the stored group's last field")
	require.NoError(tb, os.WriteFile(nodes, append(data, bootstrapPart...), 0o600))
	if extraGroups == 0 {
		return s
	}
	var docs strings.Builder
	for i := 0; i < extraGroups; i++ {
		fmt.Fprintf(&docs, `---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes-%03d
  labels:
    kops.k8s.io/cluster: %s
spec:
  role: Node
  machineType: t3.medium
  minSize: 1
  maxSize: 1
  subnets: [us-east-2a]
%s`, i, clusterName, bootstrapPart)
	}
	file := filepath.Join(tb.TempDir(), "groups.yaml")
	require.NoError(tb, os.WriteFile(file, []byte(docs.String()), 0o600))
	s.kops(tb, "create", "-f", file)
	return s
}

func (s *store) kops(tb testing.TB, args ...string) string {
	args = append(args, "--state", "file://"+s.dir)
	stdout, stderr, err := kopsenv.Exec(s.binary, bootstrapEnv, args...)
	require.NoError(tb, err, "kops %v:\n%s%s", args, stdout, stderr)
	return stdout
}

// copyTo is a copy of the store in a new folder: a cluster not updated yet, for every iteration.
func (s *store) copyTo(tb testing.TB, dir string) *store {
	require.NoError(tb, os.CopyFS(dir, os.DirFS(s.dir)))
	return &store{binary: s.binary, dir: dir}
}

var sizes = []struct {
	name   string
	groups int
}{{"minimal", 0}, {"200groups", 198}}

// The built kops updates both clusters: the dry run changes nothing, --yes writes the addons and
// the channel, and a second --yes has nothing to do. This keeps the benchmarks' code exercised.
func TestUpdateClusterBinary(t *testing.T) {
	binary := kopsenv.Build(t, "./cmd/kops")
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			s := newStore(t, binary, size.groups)
			groups := s.kops(t, "get", "instancegroups", "--name", clusterName)
			assert.Equal(t, size.groups+2, strings.Count(groups, "\n")-1, "a header and one line per group:\n%s", groups)

			assert.Contains(t, s.kops(t, "update", "cluster", clusterName), "Must specify --yes")
			_, err := os.Stat(filepath.Join(s.dir, clusterName, "addons", "bootstrap-channel.yaml"))
			assert.True(t, os.IsNotExist(err), "the dry run wrote nothing")

			s.kops(t, "update", "cluster", clusterName, "--yes")
			_, err = os.Stat(filepath.Join(s.dir, clusterName, "addons", "bootstrap-channel.yaml"))
			assert.NoError(t, err)
			assert.Contains(t, s.kops(t, "update", "cluster", clusterName, "--yes"), "No changes")

			out := filepath.Join(t.TempDir(), "terraform")
			assert.Contains(t, s.kops(t, "update", "cluster", clusterName, "--target", "terraform", "--out", out), "TerraformFile/kubernetes.tf")
			s.kops(t, "update", "cluster", clusterName, "--target", "terraform", "--out", out, "--yes")
			tf, err := os.ReadFile(filepath.Join(out, "kubernetes.tf"))
			require.NoError(t, err)
			assert.Equal(t, size.groups+2, strings.Count(string(tf), "resource \"aws_launch_template\""))
			assert.Contains(t, s.kops(t, "update", "cluster", clusterName, "--target", "terraform", "--out", out, "--yes"), "No changes")
		})
	}
}

// BenchmarkUpdateClusterBinary runs the built `kops update cluster` as a user does, one process
// per iteration, on a file:// state store: "dryrun" without --yes; "yes" on a fresh copy of a
// cluster never updated (copied outside the timer), so every file is written; "yes-noop" again on
// an updated cluster, which has nothing to write; "terraform" is --target terraform --out DIR
// without --yes (DIR empty), "terraform-yes-noop" with --yes on a DIR and store already written.
func BenchmarkUpdateClusterBinary(b *testing.B) {
	binary := kopsenv.Build(b, "./cmd/kops")
	for _, size := range sizes {
		s := newStore(b, binary, size.groups)
		b.Run(size.name+"/dryrun", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s.kops(b, "update", "cluster", clusterName)
			}
		})
		b.Run(size.name+"/yes", func(b *testing.B) {
			root := b.TempDir()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				fresh := s.copyTo(b, filepath.Join(root, fmt.Sprint(i)))
				b.StartTimer()
				fresh.kops(b, "update", "cluster", clusterName, "--yes")
			}
		})
		b.Run(size.name+"/terraform", func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "terraform")
			for i := 0; i < b.N; i++ {
				s.kops(b, "update", "cluster", clusterName, "--target", "terraform", "--out", out)
			}
		})
		b.Run(size.name+"/terraform-yes-noop", func(b *testing.B) {
			updated := s.copyTo(b, filepath.Join(b.TempDir(), "updated"))
			out := filepath.Join(b.TempDir(), "terraform")
			updated.kops(b, "update", "cluster", clusterName, "--target", "terraform", "--out", out, "--yes")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				updated.kops(b, "update", "cluster", clusterName, "--target", "terraform", "--out", out, "--yes")
			}
		})
		b.Run(size.name+"/yes-noop", func(b *testing.B) {
			updated := s.copyTo(b, filepath.Join(b.TempDir(), "updated"))
			updated.kops(b, "update", "cluster", clusterName, "--yes")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				updated.kops(b, "update", "cluster", clusterName, "--yes")
			}
		})
	}
}
