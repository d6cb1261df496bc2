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

package crdupgrade

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

var (
	crdResource     = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	corednsResource = schema.GroupVersionResource{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "corednses"}
)

// Two upgrades of one cluster, in order: first the plain one, then one where someone else had set
// a field the new CRD refuses.
func TestUpgradeFromImagePatchToImageField(t *testing.T) {
	ctx := framework.Context(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	objects := dyn.Resource(corednsResource).Namespace("kube-system")

	// What an earlier kops and channels left: the old CRD and the old object, applied by the
	// same field manager channels uses.
	installOldCRD(t, dyn)
	oldObject := readObject(t, "testdata/coredns-before.yaml")
	require.Eventually(t, func() bool { // the CRD's resource is served a moment after it is created
		_, err = objects.Apply(ctx, oldObject.GetName(), oldObject, metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
		return err == nil
	}, 30*time.Second, 100*time.Millisecond, "applying the old object: %v", err)

	// The plain upgrade: the new CRD, then the object with spec.image and without the patch,
	// which channels owned and no longer applies.
	s := kopsenv.NewStore(t, "addon-operators")
	run := kopsenv.Apply(t, env, s.Update(t, "ClusterAddons,UseAddonOperators"), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assertUpgraded(t, dyn, "registry.k8s.io/coredns/coredns:v1.14.2")

	// Back to the old CRD; someone else, allowed by it, points the operator at another channel.
	installOldCRD(t, dyn)
	require.Eventually(t, func() bool {
		_, err = objects.Patch(ctx, "coredns", types.MergePatchType,
			[]byte(`{"spec":{"channel":"http://169.254.169.254/latest/meta-data/"}}`), metav1.PatchOptions{FieldManager: "someone-else"})
		return err == nil
	}, 30*time.Second, 100*time.Millisecond, "setting spec.channel under the old CRD: %v", err)

	// The next upgrade (another cluster spec, so both addons change) replaces the CRD, then cannot
	// rewrite the object: a field channels does not own holds a value the new CRD refuses. It
	// says so, and leaves the object for an admin to look at.
	s = kopsenv.NewStore(t, "addon-operators-custom")
	location := s.Update(t, "ClusterAddons,UseAddonOperators")
	run = kopsenv.Apply(t, env, location, s.Mem, true)
	require.Error(t, run.Err)
	assert.Contains(t, run.Err.Error(), `coredns.addons.x-k8s.io: CoreDNS kube-system/coredns: CoreDNS.addons.x-k8s.io "coredns" is invalid: spec.channel: Forbidden: cannot be set`)
	assert.Equal(t, apply.Applied, run.Outcomes()["operator.coredns.addons.x-k8s.io"])

	// What docs/coredns-object.md tells the admin: delete the object orphaning what the operator
	// made (DNS keeps running), and apply again.
	orphan := metav1.DeletePropagationOrphan
	require.NoError(t, objects.Delete(ctx, "coredns", metav1.DeleteOptions{PropagationPolicy: &orphan}))
	// This server runs no garbage collector: do its part, which drops the orphan finalizer.
	_, err = objects.Patch(ctx, "coredns", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	run = kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()["coredns.addons.x-k8s.io"])
	assertUpgraded(t, dyn, "registry.example.com/mirror/coredns/coredns:v1.14.2")
}

// installOldCRD applies the CRD an earlier kops shipped, as channels would have.
func installOldCRD(t *testing.T, dyn dynamic.Interface) {
	crd := readObject(t, "testdata/crd-before.yaml")
	_, err := dyn.Resource(crdResource).Apply(framework.Context(t), crd.GetName(), crd, metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
	require.NoError(t, err)
}

func assertUpgraded(t *testing.T, dyn dynamic.Interface, image string) {
	t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, env.Client.Get(framework.Context(t), client.ObjectKey{Name: "corednses.addons.x-k8s.io"}, crd))
	assert.Contains(t, crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Required, "image", "the new CRD is in place")

	got, err := dyn.Resource(corednsResource).Namespace("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	gotImage, _, _ := unstructured.NestedString(got.Object, "spec", "image")
	assert.Equal(t, image, gotImage, "the image, now a field")
	for _, field := range []string{"patches", "channel"} {
		_, found, _ := unstructured.NestedFieldNoCopy(got.Object, "spec", field)
		assert.False(t, found, "spec.%s is gone", field)
	}
}

func readObject(t *testing.T, file string) *unstructured.Unstructured {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	obj := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal(data, &obj.Object), file)
	return obj
}
