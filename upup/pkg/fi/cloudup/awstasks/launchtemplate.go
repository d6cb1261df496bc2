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

type LaunchTemplate struct {
	Name            string
	ImageID         string
	InstanceType    string
	RootVolume      RootVolume
	Metadata        MetadataOptions
	UserData        []byte
	InstanceProfile string
	// ExistingProfile: InstanceProfile names a profile the user made (an instance group's
	// spec.iam.profile), which this build neither makes nor depends on; the template names it as is.
	ExistingProfile bool
	// Tags go on the template and on the instances, volumes and interfaces it launches.
	Tags           map[string]string
	SecurityGroups []SecurityGroup
	// OutputRole names the output <OutputRole>_security_group_ids as kops lists them; empty for none.
	OutputRole string
}

// SecurityGroup is one kops made, looked up by name and cluster tag, or one named by ID.
type SecurityGroup struct {
	Name, Cluster string
	ID            string
}

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

type RootVolume struct {
	DeviceName string
	SizeGB     int64
	Type       string
	IOPS       int64
	Throughput int64
	Encrypted  bool
}

// MetadataOptions: the endpoint itself is always on (kubelet and the cloud provider need it).
type MetadataOptions struct {
	HTTPTokens string
	// HopLimit 1 keeps token responses on the node.
	HopLimit int64
	IPv6     bool
}

var (
	_ fi.Task            = (*LaunchTemplate)(nil)
	_ terraform.Renderer = (*LaunchTemplate)(nil)
)

func (l *LaunchTemplate) Key() fi.TaskKey { return fi.TaskKey{Kind: LaunchTemplateKind, Name: l.Name} }

func (l *LaunchTemplate) Dependencies() []fi.TaskKey {
	if l.ExistingProfile {
		return nil
	}
	return []fi.TaskKey{{Kind: IAMInstanceProfileKind, Name: l.InstanceProfile}}
}

// profileSummary says whose the instance profile is, for the dry run.
func (l *LaunchTemplate) profileSummary() string {
	if l.ExistingProfile {
		return l.InstanceProfile + " (existing, spec.iam.profile)"
	}
	return l.InstanceProfile
}

func (l *LaunchTemplate) String() string {
	return fmt.Sprintf("LaunchTemplate{Name: %q, ImageID: %q, InstanceType: %q, Metadata: %s, UserData: %s, InstanceProfile: %q}",
		l.Name, l.ImageID, l.InstanceType, l.Metadata, summarizeUserData(l.UserData), l.profileSummary())
}

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

func (l *LaunchTemplate) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return ensure(
		fi.FieldChange{Name: "Name", New: l.Name},
		fi.FieldChange{Name: "ImageID", New: orNotSet(l.ImageID, "spec.image")},
		fi.FieldChange{Name: "InstanceType", New: orNotSet(l.InstanceType, "spec.machineType")},
		fi.FieldChange{Name: "RootVolume", New: l.RootVolume.String()},
		fi.FieldChange{Name: "MetadataOptions", New: l.Metadata.String()},
		fi.FieldChange{Name: "UserData", New: summarizeUserData(l.UserData)},
		fi.FieldChange{Name: "InstanceProfile", New: l.profileSummary()},
		fi.FieldChange{Name: "SecurityGroups", New: formatSecurityGroups(l.SecurityGroups)},
		fi.FieldChange{Name: "Tags", New: formatTags(l.Tags)},
	), nil
}

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
