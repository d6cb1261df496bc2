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

package kops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func int32Ptr(v int32) *int32 { return &v }
func int64Ptr(v int64) *int64 { return &v }
func strPtr(v string) *string { return &v }
func boolPtr(v bool) *bool    { return &v }

// fullCluster sets every modeled field and carries unmodeled values of each decoded shape.
func fullCluster() *Cluster {
	return &Cluster{
		TypeMeta: metav1.TypeMeta{APIVersion: GroupVersion, Kind: KindCluster},
		ObjectMeta: metav1.ObjectMeta{
			Name:   "a.example.com",
			Labels: map[string]string{"team": "x"},
		},
		Spec: ClusterSpec{
			Channel:               "stable",
			ConfigBase:            "memfs://test/a.example.com",
			KubernetesVersion:     "1.34.2",
			CloudProvider:         "aws",
			NetworkCIDR:           "172.20.0.0/16",
			NonMasqueradeCIDR:     "100.64.0.0/10",
			ServiceClusterIPRange: "100.64.0.0/13",
			Subnets:               []ClusterSubnetSpec{{Name: "a", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: SubnetTypePublic}},
			KubeDNS: &KubeDNSConfig{
				Provider:            DNSProviderCoreDNS,
				ServerIP:            "100.64.0.10",
				Domain:              "cluster.local",
				UpstreamNameservers: []string{"1.1.1.1"},
				StubDomains:         map[string][]string{"example.com": {"10.0.0.1"}},
				ExternalCoreFile:    ".:53 {}",
				CoreDNSImage:        "registry.k8s.io/coredns/coredns:v1.12.0",
				CPURequest:          quantity("100m"),
				MemoryRequest:       quantity("70Mi"),
				MemoryLimit:         quantity("170Mi"),
				Tolerations:         []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists}},
				Affinity:            &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}},
				PodAnnotations:      map[string]string{"a": "b"},
			},
			Assets:        &AssetsSpec{ContainerRegistry: "registry.example.com"},
			Addons:        []AddonSpec{{Manifest: "s3://bucket/addon.yaml"}},
			Authorization: &AuthorizationSpec{RBAC: &RBACAuthorizationSpec{}},
			MetricsServer: &MetricsServerConfig{Enabled: boolPtr(true), Image: "registry.k8s.io/metrics-server/metrics-server:v0.8.0", Insecure: boolPtr(false), OperatorMode: OperatorModeClientSide},
			CertManager:   &CertManagerConfig{Enabled: boolPtr(true), Managed: boolPtr(false)},
		},
		Unmodeled: Unmodeled{
			{Path: FieldPath{{Key: "spec"}, {Key: "etcdClusters"}}, Value: []interface{}{
				map[string]interface{}{"name": "main", "members": []interface{}{"a", 1, true}},
			}},
			{Path: FieldPath{{Key: "spec"}, {Key: "legacy"}}, Value: map[interface{}]interface{}{"k": []interface{}{"v"}}},
			{Path: FieldPath{{Key: "spec"}, {Key: "typed"}}, Value: map[string][]string{"k": {"v"}}},
		},
	}
}

func TestClusterDeepCopyEqual(t *testing.T) {
	orig := fullCluster()
	cp := orig.DeepCopy()
	require.NotNil(t, cp)
	// Quantities cache their string form, so compare them by value, then the rest structurally.
	for _, pair := range [][2]*resource.Quantity{
		{orig.Spec.KubeDNS.CPURequest, cp.Spec.KubeDNS.CPURequest},
		{orig.Spec.KubeDNS.MemoryRequest, cp.Spec.KubeDNS.MemoryRequest},
		{orig.Spec.KubeDNS.MemoryLimit, cp.Spec.KubeDNS.MemoryLimit},
	} {
		require.NotNil(t, pair[1])
		assert.Zero(t, pair[0].Cmp(*pair[1]), "%s != %s", pair[0], pair[1])
	}
	cp.Spec.KubeDNS.CPURequest, cp.Spec.KubeDNS.MemoryRequest, cp.Spec.KubeDNS.MemoryLimit =
		orig.Spec.KubeDNS.CPURequest, orig.Spec.KubeDNS.MemoryRequest, orig.Spec.KubeDNS.MemoryLimit
	assert.Equal(t, orig, cp)
}

func TestClusterDeepCopyIndependent(t *testing.T) {
	orig := fullCluster()
	want := fullCluster()
	cp := orig.DeepCopy()
	require.NotNil(t, cp)

	cp.Name = "b.example.com"
	cp.Labels["team"] = "y"
	cp.Spec.Subnets[0].CIDR = "10.0.0.0/8"
	cp.Spec.KubeDNS.StubDomains["example.com"][0] = "10.9.9.9"
	cp.Spec.KubeDNS.StubDomains["other.com"] = []string{"10.0.0.2"}
	cp.Spec.KubeDNS.UpstreamNameservers[0] = "8.8.8.8"
	cp.Spec.KubeDNS.MemoryLimit.Add(resource.MustParse("1Gi"))
	cp.Spec.KubeDNS.Tolerations[0].Key = "other"
	cp.Spec.KubeDNS.Affinity.PodAffinity = &corev1.PodAffinity{}
	cp.Spec.KubeDNS.PodAnnotations["a"] = "changed"
	cp.Spec.Assets.ContainerRegistry = "changed"
	cp.Spec.Addons[0].Manifest = "changed"
	cp.Spec.Authorization.AlwaysAllow = &AlwaysAllowAuthorizationSpec{}

	cp.Unmodeled[0].Path[1].Key = "changed"
	etcd := cp.Unmodeled[0].Value.([]interface{})[0].(map[string]interface{})
	etcd["name"] = "changed"
	etcd["members"].([]interface{})[0] = "changed"
	cp.Unmodeled[1].Value.(map[interface{}]interface{})["k"].([]interface{})[0] = "changed"
	cp.Unmodeled[2].Value.(map[string][]string)["k"][0] = "changed"
	cp.Unmodeled = append(cp.Unmodeled[:1], UnmodeledField{Value: "new"})

	assert.Equal(t, want.Name, orig.Name)
	assert.Equal(t, want.Labels, orig.Labels)
	assert.Equal(t, want.Spec.Subnets, orig.Spec.Subnets)
	assert.Equal(t, want.Spec.KubeDNS.StubDomains, orig.Spec.KubeDNS.StubDomains)
	assert.Equal(t, want.Spec.KubeDNS.UpstreamNameservers, orig.Spec.KubeDNS.UpstreamNameservers)
	assert.Equal(t, "170Mi", orig.Spec.KubeDNS.MemoryLimit.String())
	assert.Equal(t, want.Spec.KubeDNS.Tolerations, orig.Spec.KubeDNS.Tolerations)
	assert.Equal(t, want.Spec.KubeDNS.Affinity, orig.Spec.KubeDNS.Affinity)
	assert.Equal(t, want.Spec.KubeDNS.PodAnnotations, orig.Spec.KubeDNS.PodAnnotations)
	assert.Equal(t, want.Spec.Assets, orig.Spec.Assets)
	assert.Equal(t, want.Spec.Addons, orig.Spec.Addons)
	assert.Equal(t, want.Spec.Authorization, orig.Spec.Authorization)
	assert.Equal(t, want.Unmodeled, orig.Unmodeled)
}

func TestInstanceGroupDeepCopy(t *testing.T) {
	mk := func() *InstanceGroup {
		return &InstanceGroup{
			TypeMeta:   metav1.TypeMeta{APIVersion: GroupVersion, Kind: KindInstanceGroup},
			ObjectMeta: metav1.ObjectMeta{Name: "nodes", Labels: map[string]string{LabelClusterName: "a.example.com"}},
			Spec: InstanceGroupSpec{
				Role:    RoleNode,
				MinSize: int32Ptr(1),
				MaxSize: int32Ptr(3),
				Subnets: []string{"a"},
				InstanceMetadata: &InstanceMetadataSpec{
					HTTPTokens:              strPtr("required"),
					HTTPPutResponseHopLimit: int64Ptr(1),
				},
			},
			Unmodeled: Unmodeled{{Path: FieldPath{{Key: "spec"}, {Key: "taints"}}, Value: []interface{}{"a"}}},
		}
	}
	orig, want := mk(), mk()
	cp := orig.DeepCopy()
	require.NotNil(t, cp)
	assert.Equal(t, want, cp)

	*cp.Spec.MinSize = 5
	*cp.Spec.MaxSize = 9
	cp.Spec.Subnets[0] = "b"
	*cp.Spec.InstanceMetadata.HTTPTokens = "optional"
	*cp.Spec.InstanceMetadata.HTTPPutResponseHopLimit = 3
	cp.Labels[LabelClusterName] = "other"
	cp.Unmodeled[0].Value.([]interface{})[0] = "changed"

	assert.Equal(t, want, orig)
}

func TestDeepCopyNil(t *testing.T) {
	assert.Nil(t, (*Cluster)(nil).DeepCopy())
	assert.Nil(t, (*InstanceGroup)(nil).DeepCopy())
	assert.Nil(t, Unmodeled(nil).DeepCopy())
}

// Values of shapes other than the common decoder ones are still copied deeply.
func TestDeepCopyValueOtherShapes(t *testing.T) {
	s := "v"
	orig := []map[string]interface{}{{"k": []interface{}{"a"}, "nil": nil}}
	ptr := &s
	keyed := map[int]interface{}{1: nil, 2: []interface{}{"b"}}

	cpSlice := deepCopyValue(orig).([]map[string]interface{})
	cpPtr := deepCopyValue(ptr).(*string)
	cpKeyed := deepCopyValue(keyed).(map[int]interface{})
	require.Len(t, cpSlice, 1)

	cpSlice[0]["k"].([]interface{})[0] = "changed"
	*cpPtr = "changed"
	cpKeyed[2].([]interface{})[0] = "changed"

	assert.Equal(t, []map[string]interface{}{{"k": []interface{}{"a"}, "nil": nil}}, orig)
	assert.Equal(t, "v", s)
	assert.Equal(t, map[int]interface{}{1: nil, 2: []interface{}{"b"}}, keyed)
	assert.Nil(t, cpSlice[0]["nil"])
	assert.Contains(t, cpKeyed, 1)
	assert.Nil(t, deepCopyValue([]string(nil)))
}
