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

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Cluster is a kops cluster specification, as stored at <state>/<cluster>/config.
type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ClusterSpec `json:"spec,omitempty"`

	// Unmodeled holds the fields of the decoded document that this build does not model, so that they
	// are written back verbatim. It is never serialized itself.
	Unmodeled Unmodeled `json:"-"`
}

// ClusterSpec is the modeled part of a cluster's spec.
type ClusterSpec struct {
	// Channel names the channel of recommended versions and addon packages: an embedded channel name
	// (stable, alpha), a file:// URL, or "none".
	Channel string `json:"channel,omitempty"`
	// ConfigBase is where the cluster's generated configuration lives, by default <state>/<name>.
	ConfigBase        string `json:"configBase,omitempty"`
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	CloudProvider     string `json:"cloudProvider,omitempty"`
	NetworkCIDR       string `json:"networkCIDR,omitempty"`
	// AdditionalNetworkCIDRs are further ranges of the cluster's network (extra VPC CIDR blocks);
	// subnets may lie in them as well as in NetworkCIDR.
	AdditionalNetworkCIDRs []string `json:"additionalNetworkCIDRs,omitempty"`
	NonMasqueradeCIDR      string   `json:"nonMasqueradeCIDR,omitempty"`
	ServiceClusterIPRange  string   `json:"serviceClusterIPRange,omitempty"`

	Subnets []ClusterSubnetSpec `json:"subnets,omitempty"`
	// Networking selects the CNI. Only what validation needs is modeled; the other options
	// (calico, cni, kubenet, ...) are kept verbatim as unmodeled fields.
	Networking *NetworkingSpec `json:"networking,omitempty"`

	KubeDNS       *KubeDNSConfig     `json:"kubeDNS,omitempty"`
	Assets        *AssetsSpec        `json:"assets,omitempty"`
	Addons        []AddonSpec        `json:"addons,omitempty"`
	Authorization *AuthorizationSpec `json:"authorization,omitempty"`

	// PodMetadataAccess says whether pods may reach the cloud's instance metadata.
	PodMetadataAccess *PodMetadataAccessSpec `json:"podMetadataAccess,omitempty"`
	// ServiceAccountTokens says where service-account tokens are mounted by default.
	ServiceAccountTokens *ServiceAccountTokensSpec `json:"serviceAccountTokens,omitempty"`
	// MetricsServer deploys metrics-server, the source of the resource metrics API
	// (metrics.k8s.io) that kubectl top and the Horizontal Pod Autoscaler read.
	MetricsServer *MetricsServerConfig `json:"metricsServer,omitempty"`
}

// SubnetType is the kind of a cluster subnet.
type SubnetType string

// The subnet types kops knows.
const (
	SubnetTypePublic    SubnetType = "Public"
	SubnetTypePrivate   SubnetType = "Private"
	SubnetTypeUtility   SubnetType = "Utility"
	SubnetTypeDualStack SubnetType = "DualStack"
)

// ClusterSubnetSpec is one subnet of the cluster's network.
type ClusterSubnetSpec struct {
	Name string `json:"name,omitempty"`
	// ID names an existing subnet the cluster shares (subnet-0abc... on AWS). Its zone may then be
	// left out: kops looks it up from the cloud.
	ID string `json:"id,omitempty"`
	// Zone places the subnet in one availability zone (AWS, OpenStack, ...).
	Zone string `json:"zone,omitempty"`
	// Region names the region of a regional subnet: GCE subnets are regional and have no zone.
	Region string     `json:"region,omitempty"`
	CIDR   string     `json:"cidr,omitempty"`
	Type   SubnetType `json:"type,omitempty"`
}

// NetworkingSpec is the cluster's choice of CNI. Only the options that change validation rules are
// modeled.
type NetworkingSpec struct {
	// AmazonVPC gives pods addresses from the VPC itself, so the pod range may share networkCIDR.
	AmazonVPC *AmazonVPCNetworkingSpec `json:"amazonvpc,omitempty"`
	Cilium    *CiliumNetworkingSpec    `json:"cilium,omitempty"`

	// The CNIs below are modeled only by presence: which one is set decides the pods' interface
	// names on the node. Their settings are kept verbatim as unmodeled fields.
	Calico     *CNIPresence `json:"calico,omitempty"`
	Canal      *CNIPresence `json:"canal,omitempty"`
	Flannel    *CNIPresence `json:"flannel,omitempty"`
	CNI        *CNIPresence `json:"cni,omitempty"`
	Kubenet    *CNIPresence `json:"kubenet,omitempty"`
	Weave      *CNIPresence `json:"weave,omitempty"`
	KubeRouter *CNIPresence `json:"kuberouter,omitempty"`
	GCE        *CNIPresence `json:"gce,omitempty"`
}

// CNIPresence marks a CNI as selected; its settings are not modeled.
type CNIPresence struct{}

// AmazonVPCNetworkingSpec selects the AWS VPC CNI; its settings are not modeled.
type AmazonVPCNetworkingSpec struct{}

// CiliumIPAMENI is the Cilium IPAM mode that takes pod addresses from AWS ENIs, i.e. from the VPC.
const CiliumIPAMENI = "eni"

// CiliumNetworkingSpec selects Cilium; only its IPAM mode is modeled.
type CiliumNetworkingSpec struct {
	IPAM string `json:"ipam,omitempty"`
}

// PodsUseNetworkCIDR says whether pods take their addresses from the cloud network itself (AWS VPC
// CNI, or Cilium with ENI IPAM), in which case nonMasqueradeCIDR may overlap networkCIDR.
func (s *ClusterSpec) PodsUseNetworkCIDR() bool {
	n := s.Networking
	return n != nil && (n.AmazonVPC != nil || (n.Cilium != nil && n.Cilium.IPAM == CiliumIPAMENI))
}

// The DNS providers kops knows. Only CoreDNS is supported by this build.
const (
	DNSProviderCoreDNS = "CoreDNS"
	DNSProviderKubeDNS = "KubeDNS"
)

// KubeDNSConfig configures the cluster DNS addon.
type KubeDNSConfig struct {
	Provider            string              `json:"provider,omitempty"`
	ServerIP            string              `json:"serverIP,omitempty"`
	Domain              string              `json:"domain,omitempty"`
	UpstreamNameservers []string            `json:"upstreamNameservers,omitempty"`
	StubDomains         map[string][]string `json:"stubDomains,omitempty"`
	// ExternalCoreFile replaces the generated Corefile verbatim.
	ExternalCoreFile string              `json:"externalCoreFile,omitempty"`
	CoreDNSImage     string              `json:"coreDNSImage,omitempty"`
	CPURequest       *resource.Quantity  `json:"cpuRequest,omitempty"`
	MemoryRequest    *resource.Quantity  `json:"memoryRequest,omitempty"`
	MemoryLimit      *resource.Quantity  `json:"memoryLimit,omitempty"`
	Tolerations      []corev1.Toleration `json:"tolerations,omitempty"`
	Affinity         *corev1.Affinity    `json:"affinity,omitempty"`
	PodAnnotations   map[string]string   `json:"podAnnotations,omitempty"`
	// OperatorMode says where the CoreDNS object is expanded into objects when the
	// UseAddonOperators and ClusterAddons feature flags are on: OperatorModeServerSide (the
	// default) or OperatorModeClientSide. Without those flags CoreDNS is built in and the field
	// is ignored with a warning.
	OperatorMode string `json:"operatorMode,omitempty"`
}

// The values of kubeDNS.operatorMode.
const (
	// OperatorModeServerSide runs the CoreDNS operator in the cluster, which expands the CoreDNS
	// object kops writes.
	OperatorModeServerSide = "ServerSide"
	// OperatorModeClientSide expands the CoreDNS object in kops itself: the channel carries the
	// expanded objects, no operator runs and no rights are granted.
	OperatorModeClientSide = "ClientSide"
)

// AssetsSpec redirects where images and files are fetched from.
type AssetsSpec struct {
	// ContainerRegistry replaces the registry of every image (images are copied there).
	ContainerRegistry string `json:"containerRegistry,omitempty"`
	// ContainerProxy is a pull-through proxy placed in front of every image's registry.
	ContainerProxy string `json:"containerProxy,omitempty"`
}

// AddonSpec names an extra addon channel to apply.
type AddonSpec struct {
	Manifest string `json:"manifest,omitempty"`
}

// AuthorizationSpec selects the API server's authorization mode; at most one is set.
type AuthorizationSpec struct {
	AlwaysAllow *AlwaysAllowAuthorizationSpec `json:"alwaysAllow,omitempty"`
	RBAC        *RBACAuthorizationSpec        `json:"rbac,omitempty"`
}

// AlwaysAllowAuthorizationSpec turns authorization off.
type AlwaysAllowAuthorizationSpec struct{}

// RBACAuthorizationSpec turns RBAC on.
type RBACAuthorizationSpec struct{}

// MetricsServerConfig is kops's spec.metricsServer, with kops's names and meanings.
type MetricsServerConfig struct {
	// Enabled deploys metrics-server. Unset means false, as in kops.
	Enabled *bool `json:"enabled,omitempty"`
	// Image replaces the pinned default image; it is remapped by spec.assets like every other.
	Image string `json:"image,omitempty"`
	// Insecure says that the API server does not verify metrics-server's serving certificate and
	// metrics-server does not verify the kubelets'. kops's secure mode needs cert-manager, which
	// this build does not deploy, so an enabled metrics-server must set it to true.
	Insecure *bool `json:"insecure,omitempty"`
	// OperatorMode says where the MetricsServer object is expanded into objects when the
	// UseAddonOperators and ClusterAddons feature flags are on, as kubeDNS.operatorMode does for
	// CoreDNS: OperatorModeServerSide (the default) or OperatorModeClientSide. Without those flags
	// metrics-server is built in and the field is ignored with a warning.
	OperatorMode string `json:"operatorMode,omitempty"`
}

// MetricsServerEnabled says whether the cluster asks for metrics-server.
func (s *ClusterSpec) MetricsServerEnabled() bool {
	m := s.MetricsServer
	return m != nil && m.Enabled != nil && *m.Enabled
}
