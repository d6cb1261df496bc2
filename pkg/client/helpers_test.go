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

package client_test

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// testStore is one kind of state store the tests run against. mem is nil for stores that are not in
// memory, whose mutations therefore cannot be counted.
type testStore struct {
	name string
	open func(t *testing.T) (base vfs.Path, mem *vfs.MemFS)
}

var testStores = []testStore{
	{
		name: "memfs",
		open: func(t *testing.T) (vfs.Path, *vfs.MemFS) {
			mem := &vfs.MemFS{}
			base, err := vfs.ParsePath("memfs://test", mem)
			require.NoError(t, err)
			return base, mem
		},
	},
	{
		name: "file",
		open: func(t *testing.T) (vfs.Path, *vfs.MemFS) {
			base, err := vfs.ParsePath("file://"+t.TempDir(), nil)
			require.NoError(t, err)
			return base, nil
		},
	},
	{
		// A bucket of its own on the test S3 server (util/pkg/vfs/s3store/s3test), below a prefix.
		name: "s3",
		open: func(t *testing.T) (vfs.Path, *vfs.MemFS) {
			srv := s3test.Shared(t)
			base, err := vfs.NewContext(nil).WithS3(s3store.New(srv.Settings())).ParsePath("s3://" + srv.NewBucket(t) + "/kops")
			require.NoError(t, err)
			return base, nil
		},
	},
}

// forEachStore runs f once per kind of store, each time against a fresh, empty one.
func forEachStore(t *testing.T, f func(t *testing.T, base vfs.Path, mem *vfs.MemFS)) {
	t.Helper()
	for _, s := range testStores {
		t.Run(s.name, func(t *testing.T) {
			base, mem := s.open(t)
			f(t, base, mem)
		})
	}
}

// snapshot reads every file below p into a map keyed by the slash path relative to p. A missing p
// gives an empty map; empty directories do not appear.
func snapshot(t *testing.T, p vfs.Path) map[string]string {
	t.Helper()
	out := map[string]string{}
	ok, err := p.Exists()
	require.NoError(t, err)
	if !ok {
		return out
	}
	var walk func(p vfs.Path, rel string)
	walk = func(p vfs.Path, rel string) {
		children, err := p.ReadDir()
		if err == nil {
			for _, c := range children {
				walk(c, path.Join(rel, c.Base()))
			}
			return
		}
		data, err := p.ReadFile()
		require.NoError(t, err, "reading %s", p)
		out[rel] = string(data)
	}
	walk(p, "")
	return out
}

func fileNames(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	return names
}

func int32Ptr(v int32) *int32 { return &v }

func testCluster(name string) *kops.Cluster {
	return &kops.Cluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: kops.GroupVersion, Kind: kops.KindCluster},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: kops.ClusterSpec{
			Channel:           "stable",
			ConfigBase:        "memfs://test/" + name,
			KubernetesVersion: "1.34.2",
			CloudProvider:     "aws",
			NetworkCIDR:       "172.20.0.0/16",
			NonMasqueradeCIDR: "100.64.0.0/10",
			Subnets: []kops.ClusterSubnetSpec{
				{Name: "us-east-2a", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePrivate},
				{Name: "utility-us-east-2a", Zone: "us-east-2a", CIDR: "172.20.0.0/22", Type: kops.SubnetTypeUtility},
			},
			KubeDNS:       &kops.KubeDNSConfig{Provider: kops.DNSProviderCoreDNS, UpstreamNameservers: []string{"10.0.0.2"}},
			Authorization: &kops.AuthorizationSpec{RBAC: &kops.RBACAuthorizationSpec{}},
		},
	}
}

func testInstanceGroup(cluster, name string, role kops.InstanceGroupRole, size int32) *kops.InstanceGroup {
	return &kops.InstanceGroup{
		TypeMeta: metav1.TypeMeta{APIVersion: kops.GroupVersion, Kind: kops.KindInstanceGroup},
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{kops.LabelClusterName: cluster},
		},
		Spec: kops.InstanceGroupSpec{
			Role:        role,
			Image:       "099720109477/ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20250101",
			MachineType: "t3.medium",
			MinSize:     int32Ptr(size),
			MaxSize:     int32Ptr(size),
			Subnets:     []string{"us-east-2a"},
		},
	}
}

// testAddons are deliberately not in name or kind order, so that a reader that sorts them is caught.
func testAddons() []*unstructured.Unstructured {
	return []*unstructured.Unstructured{
		{Object: map[string]interface{}{
			"apiVersion": "v1",
			"kind":       "Namespace",
			"metadata":   map[string]interface{}{"name": "zeta"},
		}},
		{Object: map[string]interface{}{
			"apiVersion": "v1",
			"kind":       "ConfigMap",
			"metadata":   map[string]interface{}{"name": "alpha-settings", "namespace": "zeta"},
			"data":       map[string]interface{}{"mode": "strict", "retries": "3"},
		}},
		{Object: map[string]interface{}{
			"apiVersion": "apps/v1",
			"kind":       "Deployment",
			"metadata":   map[string]interface{}{"name": "middle", "namespace": "zeta"},
			"spec": map[string]interface{}{
				"replicas": int64(2),
				"template": map[string]interface{}{
					"spec": map[string]interface{}{
						"containers": []interface{}{
							map[string]interface{}{"name": "app", "image": "registry.k8s.io/pause:3.10"},
						},
					},
				},
			},
		}},
	}
}

// testNewCluster is a cluster with three instance groups given out of name order.
func testNewCluster(name string, withAddons bool) client.NewCluster {
	n := client.NewCluster{
		Cluster: testCluster(name),
		InstanceGroups: []*kops.InstanceGroup{
			testInstanceGroup(name, "nodes-b", kops.RoleNode, 2),
			testInstanceGroup(name, "control-plane-us-east-2a", kops.RoleControlPlane, 1),
			testInstanceGroup(name, "nodes-a", kops.RoleNode, 3),
		},
	}
	if withAddons {
		n.Addons = testAddons()
	}
	return n
}

var errInjected = errors.New("injected write failure")

// failingPath wraps a store so that WriteFile fails for every path whose String() ends in failOn.
// Join and ReadDir results are wrapped too, so every path the clientset derives from the base fails
// the same way.
type failingPath struct {
	vfs.Path
	failOn string
	// failRemoveOn makes Remove and RemoveDir fail likewise.
	failRemoveOn string
}

func (p failingPath) wrap(q vfs.Path) vfs.Path {
	return failingPath{Path: q, failOn: p.failOn, failRemoveOn: p.failRemoveOn}
}

func (p failingPath) failsRemove() bool {
	return p.failRemoveOn != "" && strings.HasSuffix(p.String(), p.failRemoveOn)
}

func (p failingPath) Remove() error {
	if p.failsRemove() {
		return errInjected
	}
	return p.Path.Remove()
}

func (p failingPath) RemoveDir() error {
	if p.failsRemove() {
		return errInjected
	}
	return p.Path.RemoveDir()
}

func (p failingPath) Join(elems ...string) vfs.Path { return p.wrap(p.Path.Join(elems...)) }

func (p failingPath) WriteFile(data []byte) error {
	if p.failOn != "" && strings.HasSuffix(p.String(), p.failOn) {
		return errInjected
	}
	return p.Path.WriteFile(data)
}

func (p failingPath) ReadDir() ([]vfs.Path, error) {
	children, err := p.Path.ReadDir()
	for i, c := range children {
		children[i] = p.wrap(c)
	}
	return children, err
}
