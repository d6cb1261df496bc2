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

package kopsmodel

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

func kube2IAMContext(t *testing.T, access *kops.PodMetadataAccessSpec, assetsSpec *kops.AssetsSpec) *model.KopsModelContext {
	remapper, err := assets.NewRemapper(assetsSpec)
	require.NoError(t, err)
	return &model.KopsModelContext{
		Cluster: &kops.Cluster{Spec: kops.ClusterSpec{PodMetadataAccess: access}},
		Assets:  remapper,
	}
}

func kube2IAMDaemonSet(t *testing.T, a *addonapi.Addon) *appsv1.DaemonSet {
	objs, err := kubemanifest.DecodeStrict(a.Manifest)
	require.NoError(t, err)
	for _, o := range objs {
		if ds, ok := o.Typed.(*appsv1.DaemonSet); ok {
			return ds
		}
	}
	require.FailNow(t, "no DaemonSet")
	return nil
}

// kube2iam is in the channel in mode Forward only.
func TestKube2IAMOnlyInForward(t *testing.T) {
	cases := []struct {
		name   string
		access *kops.PodMetadataAccessSpec
		want   bool
	}{
		{"unset", nil, false},
		{"Allow", &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessAllow}, false},
		{"Block", &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessBlock}, false},
		// Block keeps a forward section someone left behind without deploying anything.
		{"Block with a forward section", &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessBlock, Forward: &kops.PodMetadataForwardSpec{Proxy: "kube2iam"}}, false},
		{"Forward", &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessForward, Forward: &kops.PodMetadataForwardSpec{Proxy: "kube2iam"}}, true},
		{"Forward, nothing completed", &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessForward}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Builder{}.Addons(kube2IAMContext(t, tc.access, nil))
			require.NoError(t, err)
			if !tc.want {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, kube2iam.AddonName, got[0].Spec.Name)
			assert.Equal(t, kube2iam.AddonName+"/"+kube2iam.AddonID+".yaml", got[0].Spec.Manifest)
			ds := kube2IAMDaemonSet(t, got[0])
			assert.Contains(t, ds.Spec.Template.Spec.Containers[0].Args, "--app-port=8181", "the default port without completion")
		})
	}
}

func TestKube2IAMSettings(t *testing.T) {
	access := &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessForward, Forward: &kops.PodMetadataForwardSpec{
		Port: ptr.To[int32](8282), BaseRoleARN: "arn:aws:iam::123456789012:role/", DefaultRole: "pods", NamespaceRestrictions: ptr.To(true),
	}}
	got, err := Builder{}.Addons(kube2IAMContext(t, access, &kops.AssetsSpec{ContainerProxy: "proxy.example.com"}))
	require.NoError(t, err)
	require.Len(t, got, 1)
	c := kube2IAMDaemonSet(t, got[0]).Spec.Template.Spec.Containers[0]
	assert.Equal(t, "proxy.example.com/docker.io/jtblin/kube2iam:0.11.2", c.Image, "remapped like every image")
	assert.Equal(t, []string{"--app-port=8282", "--base-role-arn=arn:aws:iam::123456789012:role/", "--default-role=pods",
		"--host-ip=$(HOST_IP)", "--iptables=false", "--namespace-restrictions", "--node=$(NODE_NAME)"}, c.Args)
}

// --namespace-restrictions is passed unless the cluster says false, whether or not the spec was
// completed first (CompleteCluster fills the field; the model reads an unset one the same way).
func TestKube2IAMNamespaceRestrictions(t *testing.T) {
	cases := []struct {
		name string
		set  *bool
		want bool
	}{
		{"unset", nil, true},
		{"true", ptr.To(true), true},
		{"false", ptr.To(false), false},
	}
	for _, tc := range cases {
		for _, completed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, completed %v", tc.name, completed), func(t *testing.T) {
				access := &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessForward, Forward: &kops.PodMetadataForwardSpec{
					BaseRoleARN: "arn:aws:iam::123456789012:role/", NamespaceRestrictions: tc.set,
				}}
				ctx := kube2IAMContext(t, access, nil)
				if completed {
					ctx.Cluster.Spec.CloudProvider = "aws"
					ctx.Cluster = kops.CompleteCluster(ctx.Cluster, "memfs://test")
				}
				got, err := Builder{}.Addons(ctx)
				require.NoError(t, err)
				require.Len(t, got, 1)
				args := kube2IAMDaemonSet(t, got[0]).Spec.Template.Spec.Containers[0].Args
				assert.Equal(t, tc.want, slices.Contains(args, "--namespace-restrictions"), "args %v", args)
			})
		}
	}
}

// What the renderer cannot take is refused with the field of the cluster spec, every problem at once.
func TestKube2IAMRefuses(t *testing.T) {
	cases := []struct {
		name    string
		forward *kops.PodMetadataForwardSpec
		want    []string
	}{
		{"another proxy", &kops.PodMetadataForwardSpec{Proxy: "kiam"}, []string{`spec.podMetadataAccess.forward.proxy: "kiam" is not a proxy kops deploys`}},
		{"bad port and role", &kops.PodMetadataForwardSpec{Port: ptr.To[int32](0), DefaultRole: "a b"},
			[]string{"spec.podMetadataAccess.forward.port: 0 is not between 1 and 65535", `spec.podMetadataAccess.forward.defaultRole: "a b" contains whitespace`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			access := &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessForward, Forward: tc.forward}
			_, err := Builder{}.Addons(kube2IAMContext(t, access, nil))
			require.Error(t, err)
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}
