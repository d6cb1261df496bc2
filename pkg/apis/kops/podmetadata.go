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

import "strings"

// PodMetadataAccessSpec says whether pods may reach instance metadata (and so the node's credentials).
// Host-network pods are never affected: the rules act on traffic entering from interfaces other than lo.
type PodMetadataAccessSpec struct {
	// Mode is Allow, Block (the default where the cloud has metadata) or Forward.
	Mode    string                  `json:"mode,omitempty"`
	Forward *PodMetadataForwardSpec `json:"forward,omitempty"`
	// HostInterface narrows the rules to one iptables interface pattern; unset, every interface but lo
	// is covered so no pod interface can be missed.
	HostInterface string `json:"hostInterface,omitempty"`

	// ModeDefaulted marks a mode filled in by CompleteCluster; a group that itself allows metadata then
	// keeps that access (PodMetadataFor). Never stored.
	ModeDefaulted bool `json:"-"`
}

const (
	PodMetadataAccessAllow = "Allow"
	PodMetadataAccessBlock = "Block"
	// PodMetadataAccessForward sends pods' metadata requests to a credentials proxy and drops the rest.
	PodMetadataAccessForward = "Forward"
)

type PodMetadataForwardSpec struct {
	Proxy       string `json:"proxy,omitempty"`
	Port        *int32 `json:"port,omitempty"`
	DefaultRole string `json:"defaultRole,omitempty"`
	BaseRoleARN string `json:"baseRoleARN,omitempty"`
	// NamespaceRestrictions is kube2iam's --namespace-restrictions (default on); a pointer so an explicit
	// false is kept.
	NamespaceRestrictions *bool `json:"namespaceRestrictions,omitempty"`
}

// DefaultNamespaceRestrictions is on: without it, anyone who can create a pod may assume every role
// under baseRoleARN.
const DefaultNamespaceRestrictions = true

func (f *PodMetadataForwardSpec) NamespaceRestrictionsOn() bool {
	if f == nil || f.NamespaceRestrictions == nil {
		return DefaultNamespaceRestrictions
	}
	return *f.NamespaceRestrictions
}

const PodMetadataProxyKube2IAM = "kube2iam"

const DefaultPodMetadataForwardPort int32 = 8181

type ServiceAccountTokensSpec struct {
	// AutomountDefault false also stops token automount on the default namespace's default ServiceAccount.
	AutomountDefault *bool `json:"automountDefault,omitempty"`
}

// LoopbackInterface is where the node's own requests to a metadata address bound on the node come back
// in; a rule matching it would cut the node off from instance metadata.
const LoopbackInterface = "lo"

// InterfacePatternMatches reports whether the iptables interface pattern (a name, or a prefix ending in
// +; a lone + matches every interface) matches the interface name.
func InterfacePatternMatches(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "+"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == name
}
