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

package channels

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// A bootstrap channel as kops writes it (creationTimestamp: null, version, needsRollingUpdate,
// kubernetesVersion, needsPKI) is read; an addon whose kubernetesVersion does not admit the
// cluster is not applied (nor retired), and one that needs PKI fails by name on a cluster without
// cert-manager (TestNeedsPKI), while the others are applied.
func TestKopsAddonFields(t *testing.T) {
	const ns = "e2e-kops-fields"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://channels/kops-fields", mem)
	require.NoError(t, err)
	entry := func(name, extra string) string {
		manifest := []byte(configMap(ns, name, name))
		require.NoError(t, base.Join(name, "k8s-1.16.yaml").WriteFile(manifest))
		return fmt.Sprintf("  - id: k8s-1.16\n    manifest: %s/k8s-1.16.yaml\n    manifestHash: %s\n    name: %s\n    namespace: %s\n    selector:\n      k8s-addon: %s\n    version: 9.99.0\n%s",
			name, api.ManifestHash(manifest), name, ns, name, extra)
	}
	channel := "kind: Addons\nmetadata:\n  creationTimestamp: null\n  name: bootstrap\nspec:\n  addons:\n" +
		entry("current", "    needsRollingUpdate: control-plane\n    kubernetesVersion: '>=1.20.0'\n") +
		entry("future", "    kubernetesVersion: '>=99.0.0'\n") +
		entry("with-pki", "    needsPKI: true\n")
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile([]byte(channel)))
	location := base.Join("bootstrap-channel.yaml").String()

	run := kopsenv.Apply(t, env, location, mem, true)
	require.Error(t, run.Err)
	assert.Contains(t, run.Err.Error(), "with-pki: needsPKI: cert-manager's CRD")
	assert.Equal(t, map[string]apply.Outcome{"current": apply.Applied, "future": apply.NotForThisVersion, "with-pki": apply.Failed}, run.Outcomes(), run.Output)
	assert.Contains(t, run.Output, `kubernetesVersion ">=99.0.0" does not admit the cluster's 1.`)
	for name, want := range map[string]bool{"current": true, "future": false, "with-pki": false} {
		_, err := env.Clientset.CoreV1().ConfigMaps(ns).Get(framework.Context(t), name, metav1.GetOptions{})
		if want {
			assert.NoError(t, err, name)
		} else {
			assert.True(t, apierrors.IsNotFound(err), "%s: %v", name, err)
		}
	}
}
