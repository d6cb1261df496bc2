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

// LaunchTemplateModelBuilder adds one launch template per instance group.
type LaunchTemplateModelBuilder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*LaunchTemplateModelBuilder)(nil)

// Build adds every group's launch template. A group without image or machine type still gets one
// (AWS accepts a template without them, and stored kops groups made without --image exist); the
// template then shows them as not set, and machines cannot launch from it until they are.
func (b *LaunchTemplateModelBuilder) Build(c *fi.ModelBuilderContext) error {
	for _, ig := range b.Context.InstanceGroups {
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

func (b *LaunchTemplateModelBuilder) launchTemplate(ig *kops.InstanceGroup) (*awstasks.LaunchTemplate, error) {
	cluster := b.Context.Cluster
	profile, err := iamName(b.Context, ig.Spec.Role)
	if err != nil {
		return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
	}
	userData, err := nodesetup.UserData(cluster, ig)
	if err != nil {
		return nil, fmt.Errorf("instance group %q: user data: %w", ig.Name, err)
	}
	size := nodeRootGB
	if ig.IsControlPlane() {
		size = controlPlaneRootGB
	}
	meta := cluster.Spec.InstanceMetadataFor(ig)
	tags := clusterTags(b.Context)
	tags[TagInstanceGroup] = ig.Name
	return &awstasks.LaunchTemplate{
		Name:         ig.Name + "." + cluster.Name,
		ImageID:      ig.Spec.Image,
		InstanceType: ig.Spec.MachineType,
		RootVolume: awstasks.RootVolume{
			DeviceName: rootDeviceName, SizeGB: size, Type: rootVolumeType,
			IOPS: rootVolumeIOPS, Throughput: rootVolumeThroughput, Encrypted: true,
		},
		Metadata:        awstasks.MetadataOptions{HTTPTokens: meta.HTTPTokens, HopLimit: meta.HopLimit, IPv6: cluster.Spec.IsIPv6Only()},
		UserData:        userData,
		InstanceProfile: profile,
		Tags:            tags,
	}, nil
}
