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

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// Root volume defaults, as kops's: gp3 at its baseline performance, encrypted.
const (
	rootDeviceName             = "/dev/xvda"
	rootVolumeType             = "gp3"
	rootVolumeIOPS       int64 = 3000
	rootVolumeThroughput int64 = 125
	controlPlaneRootGB   int64 = 64
	nodeRootGB           int64 = 128
)

type LaunchTemplateModelBuilder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*LaunchTemplateModelBuilder)(nil)

// Build adds every bootable group's template (see canBoot). One without image or machine type is
// still added, as AWS accepts it and kops groups made without --image exist; nothing launches until set.
func (b *LaunchTemplateModelBuilder) Build(c *fi.ModelBuilderContext) error {
	for _, ig := range b.Context.InstanceGroups {
		if !canBoot(ig, b.Context.Nodeup) {
			continue
		}
		lt, err := b.launchTemplate(ig)
		if err != nil {
			return err
		}
		if err := c.AddTask(lt); err != nil {
			return err
		}
	}
	return nil
}

// canBoot: kubelet is installed by nodeup, which the machine's bootstrap runs, so a kubelet group
// without our bootstrap or its own additionalUserData gets no template rather than one whose machines
// never join. Bastions boot from their image.
func canBoot(ig *kops.InstanceGroup, nodeup model.NodeupSource) bool {
	return !nodesetup.HasNodeSetup(ig) || nodesetup.HasBootstrap(ig, nodeup) || len(ig.Spec.AdditionalUserData) > 0
}

func noBootstrapWarning(cluster string, ig *kops.InstanceGroup) string {
	how := "set NODEUP_URL_AMD64 and NODEUP_HASH_AMD64 (and _ARM64) for kops update cluster, or put the group's bootstrap in spec.additionalUserData"
	if !ig.IsControlPlane() {
		how = "put the group's bootstrap in spec.additionalUserData (kops's is the nodeup script in its launch template, which carries the kops-controller CA this build does not read)"
	}
	return fmt.Sprintf("instance group %q: no launch template %s is written: its machines run kubelet and nothing in their user data would start it, so they would never join the cluster; %s. A launch template kops made for the group stays kops's (docs/terraform.md)",
		ig.Name, LaunchTemplateName(cluster, ig), how)
}

func (b *LaunchTemplateModelBuilder) launchTemplate(ig *kops.InstanceGroup) (*awstasks.LaunchTemplate, error) {
	cluster := b.Context.Cluster
	_, existing, err := groupProfile(ig)
	if err != nil {
		return nil, err
	}
	profile := existing
	if profile == "" {
		if profile, err = iamName(b.Context, ig.Spec.Role); err != nil {
			return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
	}
	userData, err := nodesetup.UserData(cluster, ig, b.Context.Nodeup)
	if err != nil {
		return nil, fmt.Errorf("instance group %q: user data: %w", ig.Name, err)
	}
	if err := checkUserDataSize(ig, userData); err != nil {
		return nil, err
	}
	size := nodeRootGB
	if ig.IsControlPlane() {
		size = controlPlaneRootGB
	}
	groups, err := securityGroups(cluster, ig)
	if err != nil {
		return nil, err
	}
	meta := cluster.Spec.InstanceMetadataFor(ig)
	tags := clusterTags(b.Context)
	tags[TagInstanceGroup] = ig.Name
	return &awstasks.LaunchTemplate{
		Name:         LaunchTemplateName(cluster.Name, ig),
		ImageID:      ig.Spec.Image,
		InstanceType: ig.Spec.MachineType,
		RootVolume: awstasks.RootVolume{
			DeviceName: rootDeviceName, SizeGB: size, Type: rootVolumeType,
			IOPS: rootVolumeIOPS, Throughput: rootVolumeThroughput, Encrypted: true,
		},
		Metadata:        awstasks.MetadataOptions{HTTPTokens: meta.HTTPTokens, HopLimit: meta.HopLimit, IPv6: cluster.Spec.IsIPv6Only()},
		UserData:        userData,
		InstanceProfile: profile,
		ExistingProfile: existing != "",
		Tags:            tags,
		SecurityGroups:  groups,
		OutputRole:      outputRole(ig),
	}, nil
}
