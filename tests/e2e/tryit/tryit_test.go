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

package tryit

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// The flow as the community wrote it, line for line.
const (
	createEditUpdate = `KOPS_FEATURE_FLAGS="ClusterAddons,UseOperators" kops create cluster addons.k8s.local --zones us-east-2a --channel file://channels/stable
kops edit cluster
kops update cluster --yes
`
	validate = `kops validate cluster --wait=5m
`
)

// editor is the EDITOR the flow's `kops edit cluster` runs: it sets spec.kubeDNS.provider: CoreDNS.
const editor = `#!/bin/sh
set -e
sed -i 's/^    provider: .*/    provider: CoreDNS/' "$1"
grep -q '^    provider: CoreDNS$' "$1"
`

// TestTryItFlow runs the flow twice: with KOPS_FEATURE_FLAGS exported in the shell, as the
// community means it (CoreDNS through its operator), and with the flags given to create only, as
// the lines read literally (update then builds the built-in CoreDNS, and validate checks that).
func TestTryItFlow(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	root := kopsenv.RepoRoot(t)
	cases := []struct {
		name     string
		exported string
		dns      string
	}{
		{"flags exported", "ClusterAddons,UseOperators", "operator"},
		{"flags on create only", "", "built-in"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			kubeconfig := filepath.Join(dir, "kubeconfig")
			kopsenv.WriteKubeconfig(t, env, kubeconfig)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "editor.sh"), []byte(editor), 0o755))
			state := "file://" + filepath.Join(dir, "state")
			shellEnv := []string{
				"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"HOME=" + dir,
				"KOPS_STATE_STORE=" + state,
				"KOPS_CLUSTER_NAME=addons.k8s.local",
				"EDITOR=" + filepath.Join(dir, "editor.sh"),
				"KUBECONFIG=" + kubeconfig,
				"KOPS_FEATURE_FLAGS=" + tc.exported,
			}
			sh := func(script string) kopsenv.Run {
				return kopsenv.Command(t, root, shellEnv, "/bin/sh", "-ec", script)
			}

			r := sh(createEditUpdate)
			t.Logf("create, edit, update:\n%s%s", r.Stdout, r.Stderr)
			require.Equal(t, 0, r.Code, "stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			absolute := "file://" + filepath.ToSlash(filepath.Join(root, "channels", "stable"))
			assert.Contains(t, r.Stderr, "Channel file://channels/stable stored as "+absolute+"\n")
			config, err := os.ReadFile(filepath.Join(dir, "state", "addons.k8s.local", "config"))
			require.NoError(t, err)
			assert.Contains(t, string(config), "  channel: "+absolute+"\n")
			assert.Contains(t, string(config), "    provider: CoreDNS\n")

			// update told the user how to apply; do exactly that.
			apply := regexp.MustCompile(`Apply them on the cluster with: (channels apply channel \S+ --yes)`).FindStringSubmatch(r.Stdout)
			require.Len(t, apply, 2, r.Stdout)
			applied := kopsenv.Command(t, root, shellEnv, "/bin/sh", "-ec", apply[1])
			require.Equal(t, 0, applied.Code, "%s\n%s", applied.Stdout, applied.Stderr)

			// Another directory still finds the stored channel: nothing to change.
			again := kopsenv.Command(t, dir, shellEnv, filepath.Join(bin, "kops"), "update", "cluster", "--yes")
			require.Equal(t, 0, again.Code, again.Stderr)

			playControllers(t, tc.dns)
			r = sh(validate)
			t.Logf("validate:\n%s%s", r.Stdout, r.Stderr)
			require.Equal(t, 0, r.Code, "stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			assert.Contains(t, r.Stdout, "(DNS: "+tc.dns+")")
			assert.Contains(t, r.Stdout, "Your cluster addons.k8s.local is ready\n")
			assert.NotContains(t, r.Stdout, "FAILED")
		})
	}
}

// playControllers does what the Deployment controller and the CoreDNS operator would: the
// operator runs, creates Deployment coredns, and reports the CoreDNS object healthy.
func playControllers(t *testing.T, dns string) {
	t.Helper()
	available := true
	if dns != "operator" {
		kopsenv.SetDeploymentStatus(t, env, "kube-system", "coredns", &available)
		return
	}
	kopsenv.SetDeploymentStatus(t, env, "coredns-operator-system", "coredns-operator", &available)
	kopsenv.CreateDeployment(t, env, "kube-system", "coredns", map[string]string{"k8s-app": "kube-dns"})
	kopsenv.SetDeploymentStatus(t, env, "kube-system", "coredns", &available)
	kopsenv.SetCoreDNSStatus(t, env, true)
}
