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

const (
	HTTPTokensRequired = "required"
	HTTPTokensOptional = "optional"
	// DefaultHopLimit keeps metadata responses on the node: a pod behind a bridge never gets an IMDSv2 token.
	DefaultHopLimit int64 = 1
	// AllowModeHopLimit lets a pod one hop away fetch an IMDSv2 token, as mode Allow promises.
	AllowModeHopLimit int64 = 2
)

// InstanceMetadataAddress returns the cloud's metadata service address, false when unknown.
func InstanceMetadataAddress(cloud string) (string, bool) {
	switch cloud {
	case "aws", "gce", "azure", "openstack", "digitalocean", "hetzner":
		return "169.254.169.254", true
	case "scaleway":
		return "169.254.42.42", true
	}
	return "", false
}

// completePodMetadataAccess defaults to Block wherever the cloud has metadata; proxy defaults are
// set only for mode Forward.
func completePodMetadataAccess(s *ClusterSpec) {
	_, hasMetadata := InstanceMetadataAddress(s.CloudProvider)
	p := s.PodMetadataAccess
	if p == nil {
		if !hasMetadata {
			return
		}
		p = &PodMetadataAccessSpec{}
		s.PodMetadataAccess = p
	}
	if p.Mode == "" && hasMetadata {
		p.Mode, p.ModeDefaulted = PodMetadataAccessBlock, true
	}
	if p.Mode != PodMetadataAccessForward {
		return
	}
	if p.Forward == nil {
		p.Forward = &PodMetadataForwardSpec{}
	}
	if p.Forward.Proxy == "" {
		p.Forward.Proxy = PodMetadataProxyKube2IAM
	}
	if p.Forward.Port == nil {
		port := DefaultPodMetadataForwardPort
		p.Forward.Port = &port
	}
	if p.Forward.NamespaceRestrictions == nil {
		on := DefaultNamespaceRestrictions
		p.Forward.NamespaceRestrictions = &on
	}
}

// PodMetadataMode returns the completed mode, "" when the cloud has no metadata service.
func (s *ClusterSpec) PodMetadataMode() string {
	if s.PodMetadataAccess == nil {
		return ""
	}
	return s.PodMetadataAccess.Mode
}

// InstanceMetadataOptions are a group's metadata settings with unset values filled from the cluster's
// mode; the stored group keeps only what the user wrote.
type InstanceMetadataOptions struct {
	HTTPTokens             string
	HopLimit               int64
	TokensSet, HopLimitSet bool
}

// InstanceMetadataFor returns ig's AWS metadata settings: IMDSv2 required, hop limit 1 except in mode
// Allow (2, so pods can get a token); bastions run no pods and keep 1.
func (s *ClusterSpec) InstanceMetadataFor(ig *InstanceGroup) InstanceMetadataOptions {
	o := InstanceMetadataOptions{HTTPTokens: HTTPTokensRequired, HopLimit: DefaultHopLimit}
	if s.PodMetadataMode() == PodMetadataAccessAllow && ig.Spec.Role != RoleBastion {
		o.HopLimit = AllowModeHopLimit
	}
	if m := ig.Spec.InstanceMetadata; m != nil {
		if m.HTTPTokens != nil {
			o.HTTPTokens, o.TokensSet = *m.HTTPTokens, true
		}
		if m.HTTPPutResponseHopLimit != nil {
			o.HopLimit, o.HopLimitSet = *m.HTTPPutResponseHopLimit, true
		}
	}
	return o
}
