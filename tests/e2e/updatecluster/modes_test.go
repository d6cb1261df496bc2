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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// coreDNSModes are the built-in addon and client-side mode of one minimal cluster, each from its
// golden case's input and with the feature flags it runs with.
var coreDNSModes = []struct {
	name, goldenCase, cluster, flags string
}{
	{"builtin", "minimal", "minimal.example.com", ""},
	{"clientside", "addon-operators-clientside", "clientside.example.com", "ClusterAddons,UseAddonOperators"},
}

// modeStore is a file:// state store holding the golden case's cluster, made by `kops create -f`.
type modeStore struct {
	binary, dir, cluster string
	env                  []string
}

func newModeStore(tb testing.TB, binary, goldenCase, cluster, flags string) *modeStore {
	s := &modeStore{binary: binary, dir: filepath.Join(tb.TempDir(), "state"), cluster: cluster,
		env: []string{"KOPS_FEATURE_FLAGS=" + flags}}
	s.kops(tb, "create", "-f", filepath.Join(kopsenv.RepoRoot(tb), "tests", "integration", "update_cluster", goldenCase, "in-v1alpha2.yaml"))
	return s
}

func (s *modeStore) kops(tb testing.TB, args ...string) string {
	args = append(args, "--state", "file://"+s.dir)
	stdout, stderr, err := kopsenv.Exec(s.binary, s.env, args...)
	require.NoError(tb, err, "kops %v:\n%s%s", args, stdout, stderr)
	return stdout
}

func (s *modeStore) copyTo(tb testing.TB, dir string) *modeStore {
	require.NoError(tb, os.CopyFS(dir, os.DirFS(s.dir)))
	c := *s
	c.dir = dir
	return &c
}

// The built kops in client-side mode writes the built-in addon's very manifest and no operator.
func TestUpdateClusterBinaryClientSide(t *testing.T) {
	binary := kopsenv.Build(t, "./cmd/kops")
	manifests := map[string]string{}
	for _, mode := range coreDNSModes {
		s := newModeStore(t, binary, mode.goldenCase, mode.cluster, mode.flags)
		s.kops(t, "update", "cluster", s.cluster, "--yes")
		addons := filepath.Join(s.dir, s.cluster, "addons")
		entries, err := os.ReadDir(addons)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		assert.Equal(t, []string{"bootstrap-channel.yaml", "coredns.addons.k8s.io", "serviceaccount-defaults.addons.k8s.io"}, names, mode.name)
		data, err := os.ReadFile(filepath.Join(addons, "coredns.addons.k8s.io", "k8s-1.12.yaml"))
		require.NoError(t, err)
		manifests[mode.name] = string(data)
		assert.Contains(t, s.kops(t, "update", "cluster", s.cluster, "--yes"), "No changes", mode.name)
	}
	assert.Equal(t, manifests["builtin"], manifests["clientside"])
}

// BenchmarkUpdateClusterBinaryModes compares the built `kops update cluster` of the built-in addon
// and of client-side mode (which also reads the channel's CoreDNS package): "dryrun", and "yes" on
// a fresh copy of a cluster never updated (copied outside the timer). Client-side mode should stay
// within 20% of the built-in one.
func BenchmarkUpdateClusterBinaryModes(b *testing.B) {
	binary := kopsenv.Build(b, "./cmd/kops")
	for _, mode := range coreDNSModes {
		s := newModeStore(b, binary, mode.goldenCase, mode.cluster, mode.flags)
		b.Run(mode.name+"/dryrun", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s.kops(b, "update", "cluster", s.cluster)
			}
		})
		b.Run(mode.name+"/yes", func(b *testing.B) {
			root := b.TempDir()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				fresh := s.copyTo(b, filepath.Join(root, fmt.Sprint(i)))
				b.StartTimer()
				fresh.kops(b, "update", "cluster", s.cluster, "--yes")
			}
		})
	}
}
