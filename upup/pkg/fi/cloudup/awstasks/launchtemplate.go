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
	"context"
	"fmt"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

// LaunchTemplate is what the machines of one instance group boot from (<group>.<cluster>).
type LaunchTemplate struct {
	Name         string
	ImageID      string
	InstanceType string
	RootVolume   RootVolume
	Metadata     MetadataOptions
	// UserData is the cloud-init document the machines run first; nil for none.
	UserData []byte
	// InstanceProfile names the IAMInstanceProfile task whose role the machines get.
	InstanceProfile string
	// Tags go on the template, and on the instances, volumes and network interfaces it launches.
	Tags map[string]string
	// SecurityGroups are the machines' security groups, in order.
	SecurityGroups []SecurityGroup
	// OutputRole names the terraform output the security groups are listed in,
	// <OutputRole>_security_group_ids (master, node, bastion, ...), as kops lists them; empty for
	// none.
	OutputRole string
}

// SecurityGroup is a security group of a template's machines: one kops made, looked up by its name
// and the cluster's tag (Name, Cluster), or one the instance group names by ID.
type SecurityGroup struct {
	Name, Cluster string
	ID            string
}

// String is how reports show the group.
func (g SecurityGroup) String() string {
	if g.ID != "" {
		return g.ID
	}
	return g.Name + " (looked up by name and " + "KubernetesCluster=" + g.Cluster + ")"
}

func formatSecurityGroups(groups []SecurityGroup) string {
	if len(groups) == 0 {
		return "none (the VPC's default security group)"
	}
	s := make([]string, len(groups))
	for i, g := range groups {
		s[i] = g.String()
	}
	return strings.Join(s, ", ")
}

// RootVolume is the machines' boot disk.
type RootVolume struct {
	// DeviceName is the root device the image boots from (/dev/xvda).
	DeviceName string
	SizeGB     int64
	Type       string
	IOPS       int64
	Throughput int64
	Encrypted  bool
}

// MetadataOptions configure the instance metadata service of the machines; the endpoint itself is
// always on (the kubelet and the cloud provider on the node need it).
type MetadataOptions struct {
	// HTTPTokens is "required" (IMDSv2 only) or "optional".
	HTTPTokens string
	// HopLimit bounds how far a token response travels; 1 keeps it on the node.
	HopLimit int64
	// IPv6 enables the IPv6 endpoint ([fd00:ec2::254]), for IPv6 clusters.
	IPv6 bool
}

var (
	_ fi.Task            = (*LaunchTemplate)(nil)
	_ terraform.Renderer = (*LaunchTemplate)(nil)
)

func (l *LaunchTemplate) Key() fi.TaskKey { return fi.TaskKey{Kind: LaunchTemplateKind, Name: l.Name} }

// Dependencies: the machines get their role through the profile, which must exist first.
func (l *LaunchTemplate) Dependencies() []fi.TaskKey {
	return []fi.TaskKey{{Kind: IAMInstanceProfileKind, Name: l.InstanceProfile}}
}

func (l *LaunchTemplate) String() string {
	return fmt.Sprintf("LaunchTemplate{Name: %q, ImageID: %q, InstanceType: %q, Metadata: %s, UserData: %s, InstanceProfile: %q}",
		l.Name, l.ImageID, l.InstanceType, l.Metadata, summarizeUserData(l.UserData), l.InstanceProfile)
}

// String is the options on one line, as reports show them.
func (m MetadataOptions) String() string {
	return fmt.Sprintf("endpoint enabled, tokens %s, hop limit %d, IPv6 endpoint %s", m.HTTPTokens, m.HopLimit, enabled(m.IPv6))
}

func (v RootVolume) String() string {
	encrypted := "unencrypted"
	if v.Encrypted {
		encrypted = "encrypted"
	}
	return fmt.Sprintf("%s %d GB %s, %d IOPS, %d MiB/s, %s", v.DeviceName, v.SizeGB, v.Type, v.IOPS, v.Throughput, encrypted)
}

// Plan shows the template as it must exist; see the package comment.
func (l *LaunchTemplate) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return ensure(
		fi.FieldChange{Name: "Name", New: l.Name},
		fi.FieldChange{Name: "ImageID", New: orNotSet(l.ImageID, "spec.image")},
		fi.FieldChange{Name: "InstanceType", New: orNotSet(l.InstanceType, "spec.machineType")},
		fi.FieldChange{Name: "RootVolume", New: l.RootVolume.String()},
		fi.FieldChange{Name: "MetadataOptions", New: l.Metadata.String()},
		fi.FieldChange{Name: "UserData", New: summarizeUserData(l.UserData)},
		fi.FieldChange{Name: "InstanceProfile", New: l.InstanceProfile},
		fi.FieldChange{Name: "SecurityGroups", New: formatSecurityGroups(l.SecurityGroups)},
		fi.FieldChange{Name: "Tags", New: formatTags(l.Tags)},
	), nil
}

// summarizeUserData shows user data by size and hash, or says there is none.
func summarizeUserData(b []byte) string {
	if b == nil {
		return "none"
	}
	return summarize(b)
}

func enabled(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

// orNotSet shows an empty value as a hint naming the instance group field that sets it.
func orNotSet(v, field string) string {
	if v == "" {
		return "(not set: the group's " + field + "; machines cannot launch without it)"
	}
	return v
}
