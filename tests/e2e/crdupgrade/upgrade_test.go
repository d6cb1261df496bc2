// Package crdupgrade applies today's operator addons over a cluster that holds the CoreDNS CRD
// and object kops made before the CRD said exactly what it accepts (spec.patches, no spec.image):
// the apply must go through, and the object must end up with the image and without the patch.
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
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

var (
	crdResource     = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	corednsResource = schema.GroupVersionResource{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "corednses"}
)

func TestUpgradeFromImagePatchToImageField(t *testing.T) {
	ctx := framework.Context(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)

	// What an earlier kops and channels left: the old CRD and the old object, applied by the
	// same field manager channels uses.
	oldCRD := readObject(t, "testdata/crd-before.yaml")
	_, err = dyn.Resource(crdResource).Apply(ctx, oldCRD.GetName(), oldCRD, metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
	require.NoError(t, err)
	oldObject := readObject(t, "testdata/coredns-before.yaml")
	require.Eventually(t, func() bool { // the CRD's resource is served a moment after it is created
		_, err = dyn.Resource(corednsResource).Namespace("kube-system").Apply(ctx, oldObject.GetName(), oldObject, metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
		return err == nil
	}, 30*time.Second, 100*time.Millisecond, "applying the old object: %v", err)

	s := kopsenv.NewStore(t, "addon-operators")
	run := kopsenv.Apply(t, env, s.Update(t, "ClusterAddons,UseAddonOperators"), s.Mem, true)
	require.NoError(t, run.Err, run.Output)

	crd := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, env.Client.Get(ctx, client.ObjectKey{Name: oldCRD.GetName()}, crd))
	assert.NotContains(t, crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Required, "patches")
	assert.Contains(t, crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Required, "image", "the new CRD is in place")

	got, err := dyn.Resource(corednsResource).Namespace("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	image, _, _ := unstructured.NestedString(got.Object, "spec", "image")
	assert.Equal(t, "registry.k8s.io/coredns/coredns:v1.12.4", image, "the image the patch named, now a field")
	_, found, _ := unstructured.NestedFieldNoCopy(got.Object, "spec", "patches")
	assert.False(t, found, "the patch is gone: channels owned it and no longer applies it")
}

func readObject(t *testing.T, file string) *unstructured.Unstructured {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	obj := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal(data, &obj.Object), file)
	return obj
}
