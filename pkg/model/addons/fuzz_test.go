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

package addons

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzOperatorPackageObject: an operator package's manifest comes with a channel anyone may name
// in spec.channel, and kops takes only the objects its allow-list admits. Reading and checking one
// document as operatorPackageManifest does must not panic and must work in proportion to the
// input; an object it admits is one of the package's objects, carries none of kops's control
// marks, is exactly kops's object if kops renders it (the Namespace, the CRD, the ServiceAccount)
// and, read as the API server will read it, is otherwise a Deployment that cannot reach the node:
// non-root, no privilege escalation, every capability dropped, no host namespaces or volumes,
// running as the operator's service account.
func FuzzOperatorPackageObject(f *testing.F) {
	for _, s := range []string{
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: coredns-operator, namespace: coredns-operator-system}, spec: {selector: {matchLabels: {k8s-app: coredns-operator}}, template: {spec: {serviceAccountName: coredns-operator, securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}, containers: [{name: m, image: 'r.example.com/m:v1', securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}]}}}}`,
		`{apiVersion: v1, kind: Namespace, metadata: {name: coredns-operator-system, labels: {pod-security.kubernetes.io/enforce: restricted}}}`,
		`{apiVersion: v1, kind: ServiceAccount, metadata: {name: coredns-operator, namespace: coredns-operator-system, annotations: {addon.kops.k8s.io/handover-to: x}}}`,
		`{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: {name: corednses.addons.x-k8s.io}, spec: {group: addons.x-k8s.io, scope: Namespaced, names: {plural: corednses, kind: CoreDNS}, conversion: {strategy: Webhook}}}`,
	} {
		f.Add([]byte(s))
	}
	d := corednsmodel.Descriptor()
	allowed, err := operatorPackageObjects(d)
	require.NoError(f, err)
	for _, o := range allowed {
		if o.Rendered != nil { // kops's own objects, which a package may copy exactly
			seed, err := yaml.Marshal(o.Rendered)
			require.NoError(f, err)
			f.Add(seed)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		obj := &unstructured.Unstructured{}
		admitted := false
		var want packageObject
		allocbound.Check(t, len(doc), func() {
			if yaml.Unmarshal(doc, &obj.Object) != nil {
				return
			}
			var err error
			want, err = expectedPackageObject(allowed, obj)
			admitted = err == nil && checkNoControlMarks(obj) == nil && want.check(obj) == nil
		})
		if !admitted {
			return
		}
		if want.Rendered != nil {
			// A copy of an object kops renders is admitted only when it is that object.
			wantJSON, err := json.Marshal(want.Rendered)
			require.NoError(t, err)
			gotJSON, err := json.Marshal(obj.Object)
			require.NoError(t, err)
			assert.JSONEq(t, string(wantJSON), string(gotJSON))
		}
		for _, m := range []map[string]string{obj.GetLabels(), obj.GetAnnotations()} {
			for k := range m {
				for _, prefix := range []string{"addon.kops.k8s.io/", "channels.kops.k8s.io/", "addons.k8s.io/"} {
					assert.False(t, strings.HasPrefix(k, prefix), "kops's control mark %s", k)
				}
			}
		}
		if obj.GetKind() != "Deployment" {
			return
		}
		var dep appsv1.Deployment
		require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &dep), "an admitted Deployment the API server cannot read")
		pod := dep.Spec.Template.Spec
		assert.Equal(t, d.ServiceAccount, pod.ServiceAccountName)
		assert.False(t, pod.HostNetwork || pod.HostPID || pod.HostIPC, "host namespaces")
		assert.Empty(t, pod.Volumes)
		assert.Empty(t, pod.InitContainers)
		assert.Empty(t, pod.EphemeralContainers)
		require.NotNil(t, pod.SecurityContext)
		assert.Equal(t, true, deref(pod.SecurityContext.RunAsNonRoot))
		assert.Positive(t, deref(pod.SecurityContext.RunAsUser))
		for _, c := range pod.Containers {
			sc := c.SecurityContext
			require.NotNil(t, sc, "container %s", c.Name)
			assert.Equal(t, false, deref(sc.Privileged), "container %s", c.Name)
			require.NotNil(t, sc.AllowPrivilegeEscalation, "container %s", c.Name)
			assert.False(t, *sc.AllowPrivilegeEscalation, "container %s", c.Name)
			require.NotNil(t, sc.Capabilities, "container %s", c.Name)
			assert.Empty(t, sc.Capabilities.Add, "container %s", c.Name)
			assert.Contains(t, sc.Capabilities.Drop, corev1.Capability("ALL"), "container %s", c.Name)
			if sc.RunAsUser != nil {
				assert.Positive(t, *sc.RunAsUser, "container %s", c.Name)
			}
		}
	})
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
