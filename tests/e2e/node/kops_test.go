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

package node

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/tests/e2e/nodecluster"
)

// kopsFlow is a kops state store in a folder of the test's and the built kops and channels
// commands, pointed at the package's cluster.
type kopsFlow struct {
	root, bin, dir string
	env            []string
}

// newKopsFlow builds kops and channels and runs `kops create cluster` for the package's cluster,
// with the feature flags given (empty for built-in CoreDNS), from the repository root as the
// README's try-it flow does.
func newKopsFlow(t testing.TB, featureFlags string) *kopsFlow {
	t.Helper()
	f := kopsFlowFor(t, cluster, featureFlags)
	f.must(t, "kops", "create", "cluster", cluster.Name, "--zones", "us-east-2a", "--channel", "file://channels/stable")
	return f
}

// kopsFlowFor is a kops environment for c with an empty state store: nothing created yet.
func kopsFlowFor(t testing.TB, c *nodecluster.Cluster, featureFlags string) *kopsFlow {
	t.Helper()
	dir := t.TempDir()
	f := &kopsFlow{root: kopsenv.RepoRoot(t), bin: kopsenv.BuildCommands(t, "kops", "channels"), dir: dir}
	f.env = []string{
		"KOPS_STATE_STORE=file://" + filepath.Join(dir, "state"),
		"KOPS_CLUSTER_NAME=" + c.Name,
		"KUBECONFIG=" + c.Kubeconfig,
		"KOPS_FEATURE_FLAGS=" + featureFlags,
	}
	return f
}

// run runs one of the built commands from the repository root.
func (f *kopsFlow) run(t testing.TB, name string, args ...string) kopsenv.Run {
	t.Helper()
	return kopsenv.Command(t, f.root, f.env, filepath.Join(f.bin, name), args...)
}

// must runs a command that has to succeed.
func (f *kopsFlow) must(t testing.TB, name string, args ...string) kopsenv.Run {
	t.Helper()
	r := f.run(t, name, args...)
	require.Equal(t, 0, r.Code, "%s %v\nstdout:\n%s\nstderr:\n%s", name, args, r.Stdout, r.Stderr)
	return r
}

var applyLine = regexp.MustCompile(`Apply them on the cluster with: channels apply channel (\S+) --yes`)

// updateAndApply runs `kops update cluster --yes` and the `channels apply` it prints.
func (f *kopsFlow) updateAndApply(t testing.TB) {
	t.Helper()
	r := f.must(t, "kops", "update", "cluster", "--yes")
	m := applyLine.FindStringSubmatch(r.Stdout)
	if m == nil {
		// Nothing changed since the last update: apply the stored channel again.
		channel := filepath.Join(f.dir, "state", cluster.Name, "addons", "bootstrap-channel.yaml")
		_, err := os.Stat(channel)
		require.NoError(t, err, "update printed no channels apply line:\n%s", r.Stdout)
		m = []string{"", "file://" + channel}
	}
	f.must(t, "channels", "apply", "channel", m[1], "--yes")
}
