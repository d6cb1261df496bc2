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

package registry

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/model/addons/addonstest"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/pkg/operator/operatortest"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// applyRegistryChannel writes what kops writes for the throwaway's registry into a memory store
// and applies it with channels, as the admin, as `channels apply` does on a cluster.
func applyRegistryChannel(t *testing.T) {
	registry := []*addons.Operator{addonstest.NodeLocalDNSOperator()}
	files, err := addonstest.Channel(registry, addonstest.NodeLocalDNSPackages())
	require.NoError(t, err)
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://registry", mem)
	require.NoError(t, err)
	for path, data := range files {
		require.NoError(t, base.Join(path).WriteFile(data))
	}
	run := kopsenv.Apply(t, env, base.Join(addons.BootstrapChannelLocation).String(), mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, map[string]apply.Outcome{
		"serviceaccount-defaults.addons.k8s.io":   apply.Applied,
		"operator.node-local-dns.addons.x-k8s.io": apply.Applied,
		addonstest.NodeLocalDNSResourceAddon:      apply.Applied,
	}, run.Outcomes(), run.Output)
}

// managed are the objects the throwaway operator applies, as the shared operator runtime takes
// them from its renderer (kops's channels' label left to channels), by kind.
func managed(t *testing.T) map[string]*unstructured.Unstructured {
	manifest, _, _ := operatortest.NodeLocalDNSRendering()
	addon := manager.Addon[struct{}]{Descriptor: &operatortest.NodeLocalDNS().Descriptor, Render: func(struct{}) ([]byte, error) { return manifest, nil }}
	objs, err := addon.Objects(struct{}{})
	require.NoError(t, err)
	out := map[string]*unstructured.Unstructured{}
	for _, o := range objs {
		out[o.GetKind()] = o
	}
	return out
}

func resource(t *testing.T, kind string) schema.GroupVersionResource {
	gvr, ok := operator.ManagedResource(kind)
	require.True(t, ok, kind)
	return gvr
}

// After channels applied what kops wrote, the operator, as itself, creates exactly the objects
// its renderer gives; every other write an attacker holding its identity would try is refused,
// by the admission policies generated from the descriptor or by the Roles.
func TestThrowawayOperatorConfinedEndToEnd(t *testing.T) {
	applyRegistryChannel(t)
	d := operatortest.NodeLocalDNS()
	as, err := dynamic.NewForConfig(env.ServiceAccountConfig(d.Namespace, d.ServiceAccount))
	require.NoError(t, err)
	ctx := framework.Context(t)
	objs := managed(t)
	for _, kind := range []string{"ServiceAccount", "ConfigMap", "DaemonSet"} {
		o := objs[kind]
		_, err := as.Resource(resource(t, kind)).Namespace(d.WatchNamespace).Apply(ctx, o.GetName(), o.DeepCopy(),
			metav1.ApplyOptions{FieldManager: d.DeploymentName, Force: true})
		require.NoError(t, err, "the operator applies its %s as rendered", kind)
	}
	daemonSets := as.Resource(resource(t, "DaemonSet")).Namespace(d.WatchNamespace)
	current, err := daemonSets.Get(ctx, "node-local-dns", metav1.GetOptions{})
	require.NoError(t, err)

	attacks := []struct {
		name   string
		attack func() error
		denial string
	}{
		{"another image", func() error {
			u := current.DeepCopy()
			containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
			containers[0].(map[string]interface{})["image"] = "attacker.example.com/node-cache:evil"
			require.NoError(t, unstructured.SetNestedSlice(u.Object, containers, "spec", "template", "spec", "containers"))
			_, err := daemonSets.Update(ctx, u, metav1.UpdateOptions{})
			return err
		}, "ValidatingAdmissionPolicy 'node-local-dns-operator-scope-exact' with binding"},
		{"another DaemonSet", func() error {
			u := objs["DaemonSet"].DeepCopy()
			u.SetName("node-local-dns-2")
			_, err := daemonSets.Create(ctx, u, metav1.CreateOptions{})
			return err
		}, "ValidatingAdmissionPolicy 'node-local-dns-operator-scope' with binding"},
		{"delete the DaemonSet", func() error {
			return daemonSets.Delete(ctx, "node-local-dns", metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		}, `cannot delete resource "daemonsets"`},
		{"rewrite its instructions", func() error {
			crd := schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource}
			u, err := as.Resource(crd).Namespace(d.WatchNamespace).Get(ctx, d.Instructions, metav1.GetOptions{})
			if err != nil {
				return err
			}
			require.NoError(t, unstructured.SetNestedField(u.Object, "attacker.example.com/node-cache:evil", "spec", "image"))
			_, err = as.Resource(crd).Namespace(d.WatchNamespace).Update(ctx, u, metav1.UpdateOptions{})
			return err
		}, `cannot update resource "nodelocaldnses"`},
		{"a Secret", func() error {
			s := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": "Secret",
				"metadata": map[string]interface{}{"name": "stolen", "namespace": d.WatchNamespace}}}
			_, err := as.Resource(schema.GroupVersionResource{Version: "v1", Resource: "secrets"}).Namespace(d.WatchNamespace).Create(ctx, s, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			return err
		}, `cannot create resource "secrets"`},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			err := a.attack()
			require.Error(t, err, "refused")
			assert.Contains(t, err.Error(), a.denial)
		})
	}
}
