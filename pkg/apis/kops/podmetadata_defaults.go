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

// The instance metadata settings of AWS launch templates, as kops names them.
const (
	HTTPTokensRequired = "required"
	HTTPTokensOptional = "optional"
	// DefaultHopLimit keeps metadata responses on the node: a pod behind a bridge or veth is one
	// hop further away and never receives an IMDSv2 token.
	DefaultHopLimit int64 = 1
	// AllowModeHopLimit lets a pod one hop away fetch an IMDSv2 token, which mode Allow promises.
	AllowModeHopLimit int64 = 2
)

// InstanceMetadataAddress returns the address of a cloud's instance metadata service, which pods
// reach unless podMetadataAccess blocks it, and false for a cloud whose service this build does not
// know. Every metadata service listed serves at least the machine's user data; on aws, gce and
// azure it also hands out the machine's cloud credentials.
func InstanceMetadataAddress(cloud string) (string, bool) {
	switch cloud {
	case "aws", "gce", "azure", "openstack", "digitalocean", "hetzner":
		return "169.254.169.254", true
	case "scaleway":
		return "169.254.42.42", true
	}
	return "", false
}

// completePodMetadataAccess blocks pods from instance metadata by default wherever the cloud has
// it; a cloud without one gets no setting at all, since there is nothing to block. The proxy
// defaults (kube2iam, port 8181, namespace restrictions on) apply only to mode Forward, so that a
// forward block never appears for another mode.
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

// PodMetadataMode returns the completed mode, "" when the cluster has none (no metadata service).
func (s *ClusterSpec) PodMetadataMode() string {
	if s.PodMetadataAccess == nil {
		return ""
	}
	return s.PodMetadataAccess.Mode
}

// InstanceMetadataOptions are the metadata settings a group's machines get, with what the group
// left unset filled from the cluster's mode. They are what the launch template carries; the stored
// group keeps only what the user wrote.
type InstanceMetadataOptions struct {
	HTTPTokens string
	HopLimit   int64
	// TokensSet and HopLimitSet say whether the group set the value itself.
	TokensSet, HopLimitSet bool
}

// InstanceMetadataFor returns the metadata settings of ig's machines on AWS: IMDSv2 required
// always by default (as kops), hop limit 1 by default except in mode Allow, where it is 2 so that
// pods can get a token. Bastions run no pods, so they keep kops's 1 in every mode.
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
