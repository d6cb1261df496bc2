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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// testChannel writes a bootstrap channel of the given addons (name -> manifest) into memory, in
// order, recording each addon in namespace.
func testChannel(t *testing.T, mem *vfs.MemFS, dir, namespace string, addons [][2]string, prune map[string]*api.PruneSpec) string {
	base, err := vfs.ParsePath("memfs://channels/"+dir, mem)
	require.NoError(t, err)
	channel := api.NewAddons("bootstrap")
	for _, a := range addons {
		name, manifest := a[0], []byte(a[1])
		require.NoError(t, base.Join(name, "v1.yaml").WriteFile(manifest))
		channel.Spec.Addons = append(channel.Spec.Addons, api.AddonSpec{
			Name: name, ID: "v1", Manifest: name + "/v1.yaml", ManifestHash: api.ManifestHash(manifest),
			Namespace: namespace, Prune: prune[name],
		})
	}
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile(data))
	return base.Join("bootstrap-channel.yaml").String()
}

func configMap(namespace, name, addon string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: " + namespace +
		"\n  labels:\n    addon.kops.k8s.io/name: " + addon + "\ndata:\n  a: b\n"
}

func createNamespace(t *testing.T, name string) {
	_, err := env.Clientset.CoreV1().Namespaces().Create(framework.Context(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	require.NoError(t, err)
}

// A failing addon is reported and not recorded, the others are still applied, and once the
// manifest is fixed a re-run converges.
func TestFailureIsIsolatedAndConverges(t *testing.T) {
	const ns = "e2e-failure"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	bad := "apiVersion: v1\nkind: Service\nmetadata:\n  name: broken\n  namespace: " + ns + "\nspec:\n  clusterIP: not-an-ip\n  ports: [{port: 80}]\n"
	location := testChannel(t, mem, "broken", ns, [][2]string{
		{"first", configMap(ns, "first", "first")},
		{"broken", bad},
		{"last", configMap(ns, "last", "last")},
	}, nil)

	run := kopsenv.Apply(t, env, location, mem, true)
	require.Error(t, run.Err, "the exit code says an addon failed")
	assert.Contains(t, run.Err.Error(), "broken")
	assert.Equal(t, map[string]apply.Outcome{"first": apply.Applied, "broken": apply.Failed, "last": apply.Applied}, run.Outcomes())

	nsObj, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), ns, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Contains(t, nsObj.Annotations, "addons.k8s.io/first")
	assert.Contains(t, nsObj.Annotations, "addons.k8s.io/last")
	assert.NotContains(t, nsObj.Annotations, "addons.k8s.io/broken", "a failed addon is not recorded")
	_, err = env.Clientset.CoreV1().ConfigMaps(ns).Get(framework.Context(t), "last", metav1.GetOptions{})
	assert.NoError(t, err, "the addon after the failure was applied")

	fixed := "apiVersion: v1\nkind: Service\nmetadata:\n  name: broken\n  namespace: " + ns + "\n  labels:\n    addon.kops.k8s.io/name: broken\nspec:\n  ports: [{port: 80}]\n"
	location = testChannel(t, mem, "broken", ns, [][2]string{
		{"first", configMap(ns, "first", "first")},
		{"broken", fixed},
		{"last", configMap(ns, "last", "last")},
	}, nil)
	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, map[string]apply.Outcome{"first": apply.Unchanged, "broken": apply.Applied, "last": apply.Unchanged}, run.Outcomes())

	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err)
	assert.Zero(t, run.Requests.Mutating(), "converged")
}

// Pruning, asked for per addon, deletes the addon's objects that left its manifest, and nothing
// else.
func TestPrune(t *testing.T) {
	const ns = "e2e-prune"
	createNamespace(t, ns)
	_, err := env.Clientset.CoreV1().ConfigMaps(ns).Create(framework.Context(t), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "not-kops", Namespace: ns}}, metav1.CreateOptions{})
	require.NoError(t, err)
	mem := &vfs.MemFS{}
	prune := map[string]*api.PruneSpec{"pruned": {Kinds: []api.PruneKindSpec{{Kind: "ConfigMap", Namespaces: []string{ns}}}}}
	location := testChannel(t, mem, "prune", ns, [][2]string{{"pruned", configMap(ns, "keep", "pruned") + "---\n" + configMap(ns, "drop", "pruned")}}, prune)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	location = testChannel(t, mem, "prune", ns, [][2]string{{"pruned", configMap(ns, "keep", "pruned")}}, prune)
	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	for name, want := range map[string]bool{"keep": true, "drop": false, "not-kops": true} {
		_, err := env.Clientset.CoreV1().ConfigMaps(ns).Get(framework.Context(t), name, metav1.GetOptions{})
		if want {
			assert.NoError(t, err, name)
		} else {
			assert.True(t, apierrors.IsNotFound(err), "%s should be pruned: %v", name, err)
		}
	}
}
