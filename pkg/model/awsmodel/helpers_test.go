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

package awsmodel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
)

const (
	testCluster = "a.example.com"
	testBaseARN = "arn:aws:iam::123456789012:role/pods/"
)

func group(name string, role kops.InstanceGroupRole) *kops.InstanceGroup {
	return &kops.InstanceGroup{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{kops.LabelClusterName: testCluster}},
		Spec: kops.InstanceGroupSpec{
			Role: role, Image: "ami-0123456789abcdef0", MachineType: "t3.medium", Subnets: []string{"us-east-2a"},
		},
	}
}

// testNodeup is a nodeup source as the command passes it.
var testNodeup = model.NodeupSource{"amd64": {URLs: []string{"https://example.com/nodeup"}, SHA256: strings.Repeat("ab", 32)}}

// testBootstrap is a node group's own bootstrap, as a user carries kops's nodeup script.
var testBootstrap = kops.UserData{Name: "nodeup.sh", Type: "text/x-shellscript", Content: "#!/bin/bash\nexec /opt/bootstrap\n"}

// modelContext completes a cluster in the given mode ("" for the default) with a control plane,
// nodes (carrying testBootstrap) and a bastion, told where nodeup is, after mutate has had its way
// with it.
func modelContext(t testing.TB, mode string, mutate func(c *kops.Cluster, igs []*kops.InstanceGroup)) *model.KopsModelContext {
	c := &kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: testCluster}, Spec: kops.ClusterSpec{
		CloudProvider: "aws", KubernetesVersion: "1.34.2", NetworkCIDR: "172.20.0.0/16",
		Networking: &kops.NetworkingSpec{Calico: &kops.CNIPresence{}},
		Subnets:    []kops.ClusterSubnetSpec{{Name: "us-east-2a", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePublic}},
	}}
	if mode != "" {
		c.Spec.PodMetadataAccess = &kops.PodMetadataAccessSpec{Mode: mode}
	}
	if mode == kops.PodMetadataAccessForward {
		c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{BaseRoleARN: testBaseARN}
	}
	igs := []*kops.InstanceGroup{
		group("control-plane-us-east-2a", kops.RoleControlPlane),
		group("nodes", kops.RoleNode),
		group("bastions", kops.RoleBastion),
	}
	igs[1].Spec.AdditionalUserData = []kops.UserData{testBootstrap}
	if mutate != nil {
		mutate(c, igs)
	}
	return &model.KopsModelContext{Cluster: kops.CompleteCluster(c, "memfs://test"), InstanceGroups: igs, Nodeup: testNodeup}
}

// build runs every AWS builder and returns the tasks by key.
func build(t testing.TB, ctx *model.KopsModelContext) map[string]fi.Task {
	t.Helper()
	c := &fi.ModelBuilderContext{}
	for _, b := range Builders(ctx) {
		require.NoError(t, b.Build(c))
	}
	out := map[string]fi.Task{}
	for _, task := range c.Tasks() {
		out[task.Key().String()] = task
	}
	return out
}

func manyGroups(n int) func(c *kops.Cluster, igs []*kops.InstanceGroup) []*kops.InstanceGroup {
	return func(c *kops.Cluster, igs []*kops.InstanceGroup) []*kops.InstanceGroup {
		for i := 0; i < n; i++ {
			igs = append(igs, group(fmt.Sprintf("nodes-%03d", i), kops.RoleNode))
		}
		return igs
	}
}
