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

package awstasks

import (
	"fmt"

	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

type terraformLaunchTemplate struct {
	BlockDeviceMappings []*terraformBlockDevice      `cty:"block_device_mappings"`
	IAMInstanceProfile  *terraformInstanceProfileRef `cty:"iam_instance_profile"`
	ImageID             string                       `cty:"image_id"`
	InstanceType        string                       `cty:"instance_type"`
	Lifecycle           *terraformLifecycle          `cty:"lifecycle"`
	MetadataOptions     *terraformMetadataOptions    `cty:"metadata_options"`
	Name                string                       `cty:"name"`
	TagSpecifications   []*terraformTagSpecification `cty:"tag_specifications"`
	Tags                map[string]string            `cty:"tags"`
	UserData            *terraform.Literal           `cty:"user_data"`
	SecurityGroupIDs    []*terraform.Literal         `cty:"vpc_security_group_ids"`
}

type terraformSecurityGroupLookup struct {
	Name string            `cty:"name"`
	Tags map[string]string `cty:"tags"`
}

type terraformBlockDevice struct {
	DeviceName string              `cty:"device_name"`
	EBS        *terraformEBSVolume `cty:"ebs"`
}

type terraformEBSVolume struct {
	DeleteOnTermination *bool  `cty:"delete_on_termination"`
	Encrypted           *bool  `cty:"encrypted"`
	IOPS                *int64 `cty:"iops"`
	Throughput          *int64 `cty:"throughput"`
	VolumeSize          *int64 `cty:"volume_size"`
	VolumeType          string `cty:"volume_type"`
}

type terraformInstanceProfileRef struct {
	Name *terraform.Literal `cty:"name"`
}

// terraformLifecycle creates the replacement first, as kops does, so an auto-scaling group never
// points at a deleted template.
type terraformLifecycle struct {
	CreateBeforeDestroy *bool `cty:"create_before_destroy"`
}

type terraformMetadataOptions struct {
	HTTPEndpoint            string `cty:"http_endpoint"`
	HTTPProtocolIPv6        string `cty:"http_protocol_ipv6"`
	HTTPPutResponseHopLimit *int64 `cty:"http_put_response_hop_limit"`
	HTTPTokens              string `cty:"http_tokens"`
}

type terraformTagSpecification struct {
	ResourceType string            `cty:"resource_type"`
	Tags         map[string]string `cty:"tags"`
}

// terraformProfile refers to the profile this build writes, or names an existing one as kops does.
func (l *LaunchTemplate) terraformProfile() *terraformInstanceProfileRef {
	if l.ExistingProfile {
		return &terraformInstanceProfileRef{Name: terraform.LiteralString(l.InstanceProfile)}
	}
	return &terraformInstanceProfileRef{
		Name: terraform.LiteralProperty("aws_iam_instance_profile", terraform.ResourceName(l.InstanceProfile), "id"),
	}
}

func (l *LaunchTemplate) terraformBody(userData *terraform.Literal) *terraformLaunchTemplate {
	v, hopLimit, yes := l.RootVolume, l.Metadata.HopLimit, true
	return &terraformLaunchTemplate{
		BlockDeviceMappings: []*terraformBlockDevice{{
			DeviceName: v.DeviceName,
			EBS: &terraformEBSVolume{
				DeleteOnTermination: &yes,
				Encrypted:           &v.Encrypted,
				IOPS:                &v.IOPS,
				Throughput:          &v.Throughput,
				VolumeSize:          &v.SizeGB,
				VolumeType:          v.Type,
			},
		}},
		IAMInstanceProfile: l.terraformProfile(),
		ImageID:            l.ImageID,
		InstanceType:       l.InstanceType,
		Lifecycle:          &terraformLifecycle{CreateBeforeDestroy: &yes},
		MetadataOptions: &terraformMetadataOptions{
			HTTPEndpoint:            "enabled",
			HTTPProtocolIPv6:        enabled(l.Metadata.IPv6),
			HTTPPutResponseHopLimit: &hopLimit,
			HTTPTokens:              l.Metadata.HTTPTokens,
		},
		Name: l.Name,
		TagSpecifications: []*terraformTagSpecification{
			{ResourceType: "instance", Tags: cloneTags(l.Tags)},
			// Interfaces carry the cluster's tag, as kops tags them: Calico's rights are scoped by it.
			{ResourceType: "network-interface", Tags: cloneTags(l.Tags)},
			{ResourceType: "volume", Tags: cloneTags(l.Tags)},
		},
		Tags:             cloneTags(l.Tags),
		UserData:         userData,
		SecurityGroupIDs: l.securityGroupIDs(),
	}
}

func (l *LaunchTemplate) securityGroupIDs() []*terraform.Literal {
	var out []*terraform.Literal
	for _, g := range l.SecurityGroups {
		if g.ID != "" {
			out = append(out, terraform.LiteralString(g.ID))
			continue
		}
		out = append(out, terraform.LiteralDataProperty("aws_security_group", terraform.ResourceName(g.Name), "id"))
	}
	return out
}

// RenderTerraform puts the user data in data/ as base64, as the API takes it.
func (l *LaunchTemplate) RenderTerraform(t *terraform.Target) error {
	var userData *terraform.Literal
	if l.UserData != nil {
		var err error
		if userData, err = t.AddFile("aws_launch_template", l.Name, "user_data", l.UserData, true); err != nil {
			return fmt.Errorf("LaunchTemplate %s: %w", l.Name, err)
		}
	}
	for _, g := range l.SecurityGroups {
		if g.ID != "" {
			continue
		}
		lookup := &terraformSecurityGroupLookup{Name: g.Name, Tags: map[string]string{"KubernetesCluster": g.Cluster}}
		if err := t.RenderDataSource("aws_security_group", terraform.ResourceName(g.Name), lookup); err != nil {
			return fmt.Errorf("LaunchTemplate %s: %w", l.Name, err)
		}
	}
	if l.OutputRole != "" {
		for _, id := range l.securityGroupIDs() {
			if err := t.AddOutputListItem(l.OutputRole+"_security_group_ids", id); err != nil {
				return fmt.Errorf("LaunchTemplate %s: %w", l.Name, err)
			}
		}
	}
	return t.RenderResource("aws_launch_template", terraform.ResourceName(l.Name), l.terraformBody(userData))
}
