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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
)

// automount maps namespace/name of every ServiceAccount in manifest to its field ("unset" when absent).
func automount(t *testing.T, manifest []byte) map[string]string {
	objs, err := kubemanifest.DecodeStrict(manifest)
	require.NoError(t, err)
	out := map[string]string{}
	for _, o := range objs {
		sa, ok := o.Typed.(*corev1.ServiceAccount)
		if !ok {
			continue
		}
		assert.Empty(t, sa.Labels, "a default ServiceAccount carries no addon label, so it is never retired")
		v := "unset"
		if sa.AutomountServiceAccountToken != nil {
			v = map[bool]string{true: "true", false: "false"}[*sa.AutomountServiceAccountToken]
		}
		out[sa.Namespace+"/"+sa.Name] = v
	}
	return out
}

func TestServiceAccountDefaults(t *testing.T) {
	cases := []struct {
		name   string
		tokens *kops.ServiceAccountTokensSpec
		want   map[string]string
	}{
		{"unset", nil, map[string]string{"kube-system/default": "false", "default/default": "unset"}},
		{"automountDefault true", &kops.ServiceAccountTokensSpec{AutomountDefault: ptr.To(true)}, map[string]string{"kube-system/default": "false", "default/default": "unset"}},
		{"automountDefault false", &kops.ServiceAccountTokensSpec{AutomountDefault: ptr.To(false)}, map[string]string{"kube-system/default": "false", "default/default": "false"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := &model.KopsModelContext{Cluster: &kops.Cluster{Spec: kops.ClusterSpec{ServiceAccountTokens: tc.tokens}}}
			got, err := ServiceAccountDefaults{}.Addons(ctx)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, ServiceAccountDefaultsAddonName, got[0].Spec.Name)
			assert.Equal(t, tc.want, automount(t, got[0].Manifest))
		})
	}
}

// Every namespace a manifest creates gets its default ServiceAccount locked, right after it; the
// other documents are unchanged.
func TestLockDefaultServiceAccounts(t *testing.T) {
	in := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: a\n" +
		"---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n"
	out, err := lockDefaultServiceAccounts([]byte(in))
	require.NoError(t, err)
	objs, err := kubemanifest.DecodeStrict(out)
	require.NoError(t, err)
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.Key())
	}
	assert.Equal(t, []string{"Namespace/a", "ServiceAccount/a/default", "ConfigMap/a/c", "Namespace/b", "ServiceAccount/b/default"}, keys)
	assert.Equal(t, map[string]string{"a/default": "false", "b/default": "false"}, automount(t, out))

	none, err := lockDefaultServiceAccounts([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"))
	require.NoError(t, err)
	assert.Equal(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n", string(none), "no namespace, nothing added")
}

// BenchmarkLockDefaultServiceAccounts is what locking the created namespaces adds to rendering an
// operator package the size of the CoreDNS operator's.
func BenchmarkLockDefaultServiceAccounts(b *testing.B) {
	manifest := []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ops\n")
	for i := 0; i < 200; i++ {
		manifest = append(manifest, []byte("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: ops\ndata:\n  k: \"0123456789012345678901234567890123456789012345678901234567890123456789\"\n")...)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lockDefaultServiceAccounts(manifest); err != nil {
			b.Fatal(err)
		}
	}
}
