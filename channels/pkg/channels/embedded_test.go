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

package channels_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	builtin "k8s.io/kops/channels"
	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/addons"
)

// TestEmbeddedChannels resolves, for a current Kubernetes version, the packages of every operator
// of the registry in every built-in channel and checks what a cluster would get: the operator's
// package has a manifest, the packages of what it deploys have none and name a pinned image of
// their version.
func TestEmbeddedChannels(t *testing.T) {
	for _, name := range []string{channels.Stable, channels.Alpha, channels.None} {
		for _, o := range addons.Operators() {
			t.Run(name+"/"+o.Descriptor.AddonName, func(t *testing.T) {
				l, err := channels.Load(name, nil)
				require.NoError(t, err)
				op, err := l.Package(o.Descriptor.AddonName, "v1.35.4")
				require.NoError(t, err)
				require.NotNil(t, op.Manifest, "the operator package needs a manifest")
				checkOperatorManifest(t, o, op.Version, op.Manifest)

				for _, pkg := range o.Packages {
					deployed, err := l.Package(pkg, "1.35.4")
					require.NoError(t, err)
					assert.Nil(t, deployed.Manifest, "the operator deploys %s; the package has no manifest", pkg)
					assert.NoError(t, api.ValidatePinnedImage(deployed.Image))
					assert.True(t, strings.HasSuffix(deployed.Image, ":v"+deployed.Version), "image %s is not version %s", deployed.Image, deployed.Version)
				}
			})
		}
	}
}

// The CoreDNS operator's CRD checks spec.dnsIP with CEL isIP, which a 1.30 server does not offer
// to a new CRD: on 1.30 the embedded channels offer no CoreDNS operator, and say so.
func TestEmbeddedCoreDNSOperatorNeedsKubernetes131(t *testing.T) {
	for _, name := range []string{channels.Stable, channels.Alpha} {
		l, err := channels.Load(name, nil)
		require.NoError(t, err)
		_, err = l.Package(coredns.Names().AddonName, "1.30.14")
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), `has no version of package "`+coredns.Names().AddonName+`" for Kubernetes 1.30.14; it offers 0.2.0 for Kubernetes >=1.31.0`)
		op, err := l.Package(coredns.Names().AddonName, "1.31.0")
		require.NoError(t, err, name)
		assert.Equal(t, "0.2.0", op.Version)
	}
}

// TestEmbeddedManifestsMatchChannels checks every version, not only the newest: each version of
// an operator of the registry has a manifest, no other package has one, and no manifest is left
// unreferenced.
func TestEmbeddedManifestsMatchChannels(t *testing.T) {
	root := builtin.FS()
	referenced := map[string]bool{}
	for _, name := range []string{channels.Stable, channels.Alpha} {
		l, err := channels.Load(name, nil)
		require.NoError(t, err)
		for _, p := range l.Channel().Spec.Packages {
			file := "packages/" + p.Name + "/" + p.Version + "/manifest.yaml"
			data, err := fs.ReadFile(root, file)
			o := addons.OperatorOf(p.Name)
			if o == nil {
				assert.ErrorIs(t, err, fs.ErrNotExist, "%s: unexpected manifest", file)
				continue
			}
			require.NoError(t, err, "%s channel lists %s %s", name, p.Name, p.Version)
			referenced[file] = true
			checkOperatorManifest(t, o, p.Version, data)
		}
	}
	require.NoError(t, fs.WalkDir(root, "packages", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			assert.True(t, referenced[p], "%s is not referenced by any channel", p)
		}
		return err
	}))
}

// checkOperatorManifest decodes every object strictly and checks the operator's settings.
func checkOperatorManifest(t *testing.T, o *addons.Operator, version string, manifest []byte) {
	t.Helper()
	docs, err := kubemanifest.Split(manifest)
	require.NoError(t, err)
	var keys []string
	objects := map[string]any{}
	for i, doc := range docs {
		obj := decodeStrict(t, fmt.Sprintf("document %d", i+1), doc)
		accessor, err := metaAccessor(obj)
		require.NoError(t, err)
		key := reflect.TypeOf(obj).Elem().Name() + "/" + accessor.GetName()
		keys = append(keys, key)
		objects[key] = obj
		assert.Equal(t, "kops", accessor.GetLabels()["app.kubernetes.io/managed-by"], key)
		for _, image := range podImages(obj) {
			assert.NoError(t, api.ValidatePinnedImage(image), key)
		}
	}
	// The Namespace, the CRD and the ServiceAccount are kops's: it renders them itself (generated
	// from the operator's descriptor) and the package only names the operator's version.
	require.Equal(t, []string{"Deployment/" + o.Descriptor.DeploymentName}, keys)
	checkDeployment(t, o, version, objects[keys[0]].(*appsv1.Deployment))
}

func checkDeployment(t *testing.T, o *addons.Operator, version string, d *appsv1.Deployment) {
	t.Helper()
	op := o.Descriptor
	assert.Equal(t, op.Namespace, d.Namespace)
	assert.Equal(t, op.DeploymentName, d.Labels["k8s-app"])
	require.NotNil(t, d.Spec.Replicas)
	assert.EqualValues(t, 1, *d.Spec.Replicas)
	assert.Equal(t, map[string]string{"k8s-app": op.DeploymentName}, d.Spec.Selector.MatchLabels)
	pod := d.Spec.Template.Spec
	assert.Equal(t, op.DeploymentName, d.Spec.Template.Labels["k8s-app"])
	assert.Equal(t, op.ServiceAccount, pod.ServiceAccountName)
	require.NotNil(t, pod.AutomountServiceAccountToken)
	assert.True(t, *pod.AutomountServiceAccountToken, "the operator talks to the API server")
	assert.Equal(t, op.Pod.PriorityClassName, pod.PriorityClassName)
	assert.Equal(t, op.Pod.NodeSelector, pod.NodeSelector)

	require.Len(t, pod.Containers, 1)
	c := pod.Containers[0]
	assert.Equal(t, operatorImage(o, version), c.Image,
		"the manifest must run the version the channel names, built by make images from the operator's binary")
	assert.Subset(t, c.Args, []string{
		"--leader-elect", "--leader-election-namespace=" + op.Namespace, "--watch-namespace=" + op.WatchNamespace,
	})

	sc := c.SecurityContext
	require.NotNil(t, sc)
	assert.Equal(t, ptr(true), sc.RunAsNonRoot)
	assert.Equal(t, ptr(int64(65532)), sc.RunAsUser)
	assert.Equal(t, ptr(true), sc.ReadOnlyRootFilesystem)
	assert.Equal(t, ptr(false), sc.AllowPrivilegeEscalation)
	require.NotNil(t, sc.Capabilities)
	assert.Equal(t, []corev1.Capability{"ALL"}, sc.Capabilities.Drop)
	require.NotNil(t, sc.SeccompProfile)
	assert.Equal(t, corev1.SeccompProfileTypeRuntimeDefault, sc.SeccompProfile.Type)

	assert.Equal(t, "10m", c.Resources.Requests.Cpu().String())
	assert.Equal(t, "40Mi", c.Resources.Requests.Memory().String())
	assert.Equal(t, "120Mi", c.Resources.Limits.Memory().String())

	for probe, path := range map[*corev1.Probe]string{c.LivenessProbe: "/healthz", c.ReadinessProbe: "/readyz"} {
		require.NotNil(t, probe)
		require.NotNil(t, probe.HTTPGet)
		assert.Equal(t, path, probe.HTTPGet.Path)
		assert.Equal(t, intstr.FromInt32(8081), probe.HTTPGet.Port)
	}
}

// decodeStrict decodes one document into its typed struct with unknown fields rejected, then checks
// that re-encoding keeps every field: custom unmarshalers (the CRD schema's items) are not strict.
func decodeStrict(t *testing.T, what string, doc []byte) any {
	t.Helper()
	var tm metav1.TypeMeta
	require.NoError(t, yaml.Unmarshal(doc, &tm), what)
	var obj any
	if tm.APIVersion == "apiextensions.k8s.io/v1" && tm.Kind == "CustomResourceDefinition" {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		require.NoError(t, yaml.UnmarshalStrict(doc, crd), what)
		obj = crd
	} else {
		objs, err := kubemanifest.DecodeStrict(doc)
		require.NoError(t, err, what)
		require.Len(t, objs, 1, what)
		obj = objs[0].Typed
	}
	var written, reencoded map[string]any
	require.NoError(t, yaml.Unmarshal(doc, &written), what)
	js, err := json.Marshal(obj)
	require.NoError(t, err, what)
	require.NoError(t, json.Unmarshal(js, &reencoded), what)
	assertSubset(t, what, written, reencoded)
	return obj
}

// assertSubset fails for every value in want that got lacks or holds differently.
func assertSubset(t *testing.T, where string, want, got any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !assert.True(t, ok, "%s: got %v", where, got) {
			return
		}
		for k, v := range w {
			assertSubset(t, where+"."+k, v, g[k])
		}
	case []any:
		g, ok := got.([]any)
		if !assert.True(t, ok, "%s: got %v", where, got) || !assert.Len(t, g, len(w), where) {
			return
		}
		for i := range w {
			assertSubset(t, fmt.Sprintf("%s[%d]", where, i), w[i], g[i])
		}
	default:
		assert.Equal(t, want, got, where)
	}
}

// podImages lists the images of a workload's pod template.
func podImages(obj any) []string {
	var spec *corev1.PodSpec
	switch o := obj.(type) {
	case *appsv1.Deployment:
		spec = &o.Spec.Template.Spec
	case *appsv1.DaemonSet:
		spec = &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		spec = &o.Spec.Template.Spec
	default:
		return nil
	}
	var images []string
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		images = append(images, c.Image)
	}
	return images
}

func metaAccessor(obj any) (metav1.Object, error) {
	if o, ok := obj.(metav1.Object); ok {
		return o, nil
	}
	return nil, fmt.Errorf("%T has no object metadata", obj)
}

func ptr[T any](v T) *T { return &v }

// operatorImage is the image make images builds from the operator's binary: this project's
// placeholder repository, named after the binary, tagged with the package version.
func operatorImage(o *addons.Operator, version string) string {
	return "kops-addons/" + path.Base(o.Binary) + ":v" + version
}
