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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/tests/e2e/nodecluster"
)

// The README's try-it flow, line for line, as a user runs it after make cluster.
const (
	tryItCreateEditUpdate = `KOPS_FEATURE_FLAGS="ClusterAddons,UseOperators" kops create cluster addons.k8s.local --zones us-east-2a --channel file://channels/stable
kops edit cluster
kops update cluster --yes
`
	tryItValidate = `kops validate cluster --wait=5m
`
)

// tryItEditor is the EDITOR of the flow's `kops edit cluster`: it sets spec.kubeDNS.provider:
// CoreDNS, the README's example edit (already the default, so kops keeps the cluster as it was).
const tryItEditor = `#!/bin/sh
set -e
sed -i 's/^    provider: .*/    provider: CoreDNS/' "$1"
`

// TestTryItFlowOnAFreshNode runs the README's try-it flow, with the feature flags exported as the
// README's setup line does, on a fresh cluster of its own (as after make cluster): the operator
// image from make images runs, renders CoreDNS, CoreDNS starts, and `kops validate cluster --wait`
// says the cluster is ready with nothing patched by hand.
func TestTryItFlowOnAFreshNode(t *testing.T) {
	c := nodecluster.Start(t)
	require.Equal(t, "addons.k8s.local", c.Name, "the README's cluster name is the kubeconfig's context")
	flow := kopsFlowFor(t, c, "ClusterAddons,UseOperators")
	editor := filepath.Join(flow.dir, "editor.sh")
	require.NoError(t, os.WriteFile(editor, []byte(tryItEditor), 0o755))
	shellEnv := append([]string{"PATH=" + flow.bin + string(os.PathListSeparator) + os.Getenv("PATH"), "EDITOR=" + editor}, flow.env...)
	sh := func(script string) kopsenv.Run {
		return kopsenv.Command(t, flow.root, shellEnv, "/bin/sh", "-ec", script)
	}

	r := sh(tryItCreateEditUpdate)
	require.Equal(t, 0, r.Code, "stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	apply := regexp.MustCompile(`Apply them on the cluster with: (channels apply channel \S+ --yes)`).FindStringSubmatch(r.Stdout)
	require.Len(t, apply, 2, r.Stdout)
	applied := sh(apply[1])
	require.Equal(t, 0, applied.Code, "%s\n%s", applied.Stdout, applied.Stderr)

	r = sh(tryItValidate)
	t.Logf("validate:\n%s%s", r.Stdout, r.Stderr)
	require.Equal(t, 0, r.Code, "stdout:\n%s\nstderr:\n%s\noperator's pods and kubelet's log: %s", r.Stdout, r.Stderr, c.LogFile("kubelet"))
	assert.Contains(t, r.Stdout, "(DNS: operator)")
	assert.Contains(t, r.Stdout, "Your cluster addons.k8s.local is ready\n")
	assert.NotContains(t, r.Stdout, "FAILED")
}
