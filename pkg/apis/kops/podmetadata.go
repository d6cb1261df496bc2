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

// PodMetadataAccessSpec says whether pods may reach the cloud's instance metadata service (IMDS,
// 169.254.169.254), from which any pod on a node could otherwise read the node's credentials.
// Host-network pods (the control plane, kube-proxy, CNI agents) are never affected: the node rules
// act on what enters the node from any interface but lo, and the node's own processes send
// through OUTPUT.
type PodMetadataAccessSpec struct {
	// Mode is PodMetadataAccessAllow, PodMetadataAccessBlock (the default on clouds with instance
	// metadata) or PodMetadataAccessForward.
	Mode string `json:"mode,omitempty"`
	// Forward configures the credentials proxy pods are sent to; only with mode Forward.
	Forward *PodMetadataForwardSpec `json:"forward,omitempty"`
	// HostInterface narrows the node rules to traffic entering on this iptables interface pattern
	// (cali+, eth1). Unset, they hold every interface but lo, whatever spec.networking is, so
	// that no pod interface can be missed; set, every other interface reaches metadata.
	HostInterface string `json:"hostInterface,omitempty"`

	// ModeDefaulted is set by CompleteCluster when the user wrote no mode and Block was filled in.
	// A default is never an error: a group that itself lets pods reach metadata then keeps that
	// access (PodMetadataFor). It is never stored.
	ModeDefaulted bool `json:"-"`
}

// The values of podMetadataAccess.mode.
const (
	// PodMetadataAccessAllow leaves instance metadata reachable from pods.
	PodMetadataAccessAllow = "Allow"
	// PodMetadataAccessBlock drops pod traffic to instance metadata.
	PodMetadataAccessBlock = "Block"
	// PodMetadataAccessForward sends pods' metadata requests to a credentials proxy (kube2iam) and
	// drops the rest.
	PodMetadataAccessForward = "Forward"
)

// PodMetadataForwardSpec configures the credentials proxy of the Forward mode.
type PodMetadataForwardSpec struct {
	// Proxy names the proxy; only PodMetadataProxyKube2IAM is known.
	Proxy string `json:"proxy,omitempty"`
	// Port is the node port the proxy listens on (default 8181).
	Port *int32 `json:"port,omitempty"`
	// DefaultRole is the role a pod without an annotation gets.
	DefaultRole string `json:"defaultRole,omitempty"`
	// BaseRoleARN is the ARN prefix of the roles pods may assume (arn:aws:iam::123456789012:role/).
	BaseRoleARN string `json:"baseRoleARN,omitempty"`
	// NamespaceRestrictions restricts the roles a pod may assume to those its namespace allows
	// (kube2iam's --namespace-restrictions): a pod gets the role its iam.amazonaws.com/role
	// annotation names only if its namespace's iam.amazonaws.com/allowed-roles annotation (a JSON
	// list of role names or ARNs, glob patterns) matches it; forward.defaultRole stays open to every
	// pod. Unset means on (DefaultNamespaceRestrictions); false turns it off, so that any pod may
	// name any role under baseRoleARN. A pointer, so that an explicit false is kept.
	NamespaceRestrictions *bool `json:"namespaceRestrictions,omitempty"`
}

// DefaultNamespaceRestrictions is kube2iam's --namespace-restrictions when
// forward.namespaceRestrictions is unset: without it, whoever may create a pod in any namespace may
// assume every role under baseRoleARN.
const DefaultNamespaceRestrictions = true

// NamespaceRestrictionsOn says whether kube2iam restricts roles by namespace: the field, or the
// default when it is unset (or there is no forward block).
func (f *PodMetadataForwardSpec) NamespaceRestrictionsOn() bool {
	if f == nil || f.NamespaceRestrictions == nil {
		return DefaultNamespaceRestrictions
	}
	return *f.NamespaceRestrictions
}

// PodMetadataProxyKube2IAM is the only credentials proxy this build deploys.
const PodMetadataProxyKube2IAM = "kube2iam"

// DefaultPodMetadataForwardPort is the port kube2iam listens on unless told otherwise.
const DefaultPodMetadataForwardPort int32 = 8181

// ServiceAccountTokensSpec says where Kubernetes hands out service-account tokens by default.
type ServiceAccountTokensSpec struct {
	// AutomountDefault, when false, sets automountServiceAccountToken: false on the default
	// ServiceAccount of the default namespace too (kube-system's and those of namespaces kops
	// creates always get it).
	AutomountDefault *bool `json:"automountDefault,omitempty"`
}
