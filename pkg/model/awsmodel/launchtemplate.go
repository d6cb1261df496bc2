package awsmodel

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

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

// Build adds every group's launch template; a group without an image or machine type is reported
// with the others rather than stopping at the first.
func (b *LaunchTemplateModelBuilder) Build(c *fi.ModelBuilderContext) error {
	var errs field.ErrorList
	igsPath := field.NewPath("instanceGroups")
	for _, ig := range b.Context.InstanceGroups {
		spec := igsPath.Key(ig.Name).Child("spec")
		if ig.Spec.Image == "" {
			errs = append(errs, field.Required(spec.Child("image"), "the launch template needs a machine image (an AMI ID, or owner/name)"))
		}
		if ig.Spec.MachineType == "" {
			errs = append(errs, field.Required(spec.Child("machineType"), "the launch template needs an instance type, e.g. t3.medium"))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("cannot build launch templates: %w", errs.ToAggregate())
	}
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
