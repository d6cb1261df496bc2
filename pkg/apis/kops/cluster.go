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

	// Unmodeled holds decoded fields this build does not model; they are written back verbatim.
	Unmodeled Unmodeled `json:"-"`
}

type ClusterSpec struct {
	// Channel is an embedded channel name (stable, alpha), a file:// URL, or "none".
	Channel string `json:"channel,omitempty"`
	// ConfigBase defaults to <state>/<name>.
	ConfigBase        string `json:"configBase,omitempty"`
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	CloudProvider     string `json:"cloudProvider,omitempty"`
	NetworkCIDR       string `json:"networkCIDR,omitempty"`
	// AdditionalNetworkCIDRs are extra VPC CIDR blocks; subnets may lie in them too.
	AdditionalNetworkCIDRs []string `json:"additionalNetworkCIDRs,omitempty"`
	NonMasqueradeCIDR      string   `json:"nonMasqueradeCIDR,omitempty"`
	ServiceClusterIPRange  string   `json:"serviceClusterIPRange,omitempty"`

	Subnets []ClusterSubnetSpec `json:"subnets,omitempty"`
	// Networking models only what validation needs; other CNI options stay unmodeled.
	Networking *NetworkingSpec `json:"networking,omitempty"`

	KubeDNS       *KubeDNSConfig     `json:"kubeDNS,omitempty"`
	Assets        *AssetsSpec        `json:"assets,omitempty"`
	Addons        []AddonSpec        `json:"addons,omitempty"`
	Authorization *AuthorizationSpec `json:"authorization,omitempty"`

	// PodMetadataAccess says whether pods may reach the cloud's instance metadata.
	PodMetadataAccess    *PodMetadataAccessSpec    `json:"podMetadataAccess,omitempty"`
	ServiceAccountTokens *ServiceAccountTokensSpec `json:"serviceAccountTokens,omitempty"`
	// MetricsServer deploys metrics-server (metrics.k8s.io).
	MetricsServer *MetricsServerConfig `json:"metricsServer,omitempty"`
	// CertManager says whether cert-manager runs on the cluster. This build does not deploy it (kops
	// does, unless managed is false); it reads only whether it is enabled.
	CertManager *CertManagerConfig `json:"certManager,omitempty"`
}

type SubnetType string

const (
	SubnetTypePublic    SubnetType = "Public"
	SubnetTypePrivate   SubnetType = "Private"
	SubnetTypeUtility   SubnetType = "Utility"
	SubnetTypeDualStack SubnetType = "DualStack"
)

type ClusterSubnetSpec struct {
	Name string `json:"name,omitempty"`
	// ID names an existing shared subnet; its zone may then be left to the cloud.
	ID   string `json:"id,omitempty"`
	Zone string `json:"zone,omitempty"`
	// Region is set for regional subnets (GCE), which have no zone.
	Region string     `json:"region,omitempty"`
	CIDR   string     `json:"cidr,omitempty"`
	Type   SubnetType `json:"type,omitempty"`
}

// NetworkingSpec models only the CNI options that change validation rules.
type NetworkingSpec struct {
	// AmazonVPC gives pods VPC addresses, so the pod range may share networkCIDR.
	AmazonVPC *AmazonVPCNetworkingSpec `json:"amazonvpc,omitempty"`
	Cilium    *CiliumNetworkingSpec    `json:"cilium,omitempty"`

	// The CNIs below are modeled only by presence: it decides the pods' interface names.
	Calico     *CNIPresence `json:"calico,omitempty"`
	Canal      *CNIPresence `json:"canal,omitempty"`
	Flannel    *CNIPresence `json:"flannel,omitempty"`
	CNI        *CNIPresence `json:"cni,omitempty"`
	Kubenet    *CNIPresence `json:"kubenet,omitempty"`
	Weave      *CNIPresence `json:"weave,omitempty"`
	KubeRouter *CNIPresence `json:"kuberouter,omitempty"`
	GCE        *CNIPresence `json:"gce,omitempty"`
}

type CNIPresence struct{}

type AmazonVPCNetworkingSpec struct{}

const CiliumIPAMENI = "eni"

type CiliumNetworkingSpec struct {
	IPAM string `json:"ipam,omitempty"`
}

// PodsUseNetworkCIDR says whether pods take cloud-network addresses (AWS VPC CNI, Cilium ENI IPAM),
// so that nonMasqueradeCIDR may overlap networkCIDR.
func (s *ClusterSpec) PodsUseNetworkCIDR() bool {
	n := s.Networking
	return n != nil && (n.AmazonVPC != nil || (n.Cilium != nil && n.Cilium.IPAM == CiliumIPAMENI))
}

// Only CoreDNS is supported by this build.
const (
	DNSProviderCoreDNS = "CoreDNS"
	DNSProviderKubeDNS = "KubeDNS"
)

type KubeDNSConfig struct {
	Provider            string              `json:"provider,omitempty"`
	ServerIP            string              `json:"serverIP,omitempty"`
	Domain              string              `json:"domain,omitempty"`
	UpstreamNameservers []string            `json:"upstreamNameservers,omitempty"`
	StubDomains         map[string][]string `json:"stubDomains,omitempty"`
	ExternalCoreFile    string              `json:"externalCoreFile,omitempty"`
	CoreDNSImage        string              `json:"coreDNSImage,omitempty"`
	CPURequest          *resource.Quantity  `json:"cpuRequest,omitempty"`
	MemoryRequest       *resource.Quantity  `json:"memoryRequest,omitempty"`
	MemoryLimit         *resource.Quantity  `json:"memoryLimit,omitempty"`
	Tolerations         []corev1.Toleration `json:"tolerations,omitempty"`
	Affinity            *corev1.Affinity    `json:"affinity,omitempty"`
	PodAnnotations      map[string]string   `json:"podAnnotations,omitempty"`
	// OperatorMode is ServerSide (default) or ClientSide; it applies only with the UseAddonOperators and
	// ClusterAddons feature flags, and is otherwise ignored with a warning.
	OperatorMode string `json:"operatorMode,omitempty"`
}

const (
	// OperatorModeServerSide runs the CoreDNS operator in the cluster.
	OperatorModeServerSide = "ServerSide"
	// OperatorModeClientSide expands the CoreDNS object in kops: no operator runs, no rights are granted.
	OperatorModeClientSide = "ClientSide"
)

type AssetsSpec struct {
	ContainerRegistry string `json:"containerRegistry,omitempty"`
	ContainerProxy    string `json:"containerProxy,omitempty"`
}

type AddonSpec struct {
	Manifest string `json:"manifest,omitempty"`
}

// AuthorizationSpec selects the API server's authorization mode; at most one is set.
type AuthorizationSpec struct {
	AlwaysAllow *AlwaysAllowAuthorizationSpec `json:"alwaysAllow,omitempty"`
	RBAC        *RBACAuthorizationSpec        `json:"rbac,omitempty"`
}

type AlwaysAllowAuthorizationSpec struct{}

type RBACAuthorizationSpec struct{}

type MetricsServerConfig struct {
	// Enabled defaults to false, as in kops.
	Enabled *bool  `json:"enabled,omitempty"`
	Image   string `json:"image,omitempty"`
	// Insecure unset or false is kops's secure mode: cert-manager issues metrics-server's serving
	// certificate, so spec.certManager must be enabled (and cert-manager run on the cluster: this
	// build does not deploy it).
	Insecure *bool `json:"insecure,omitempty"`
	// OperatorMode is as kubeDNS.operatorMode, for metrics-server.
	OperatorMode string `json:"operatorMode,omitempty"`
}

func (s *ClusterSpec) MetricsServerEnabled() bool {
	m := s.MetricsServer
	return m != nil && m.Enabled != nil && *m.Enabled
}

// MetricsServerSecure says whether an enabled metrics-server runs in kops's secure mode: insecure
// unset counts as false, as kops's validation and bootstrap channel (needsPKI) count it. (kops's
// template alone reads unset as true, so kops renders the insecure objects under needsPKI for such
// a spec; this build renders what its validation and channel entry ask for.)
func (s *ClusterSpec) MetricsServerSecure() bool {
	if !s.MetricsServerEnabled() {
		return false
	}
	insecure := s.MetricsServer.Insecure
	return insecure == nil || !*insecure
}

// CertManagerConfig models the two fields of kops's spec.certManager this build reads; the others
// (image, defaultIssuer, nameservers, hostedZoneIDs) are kept as written.
type CertManagerConfig struct {
	// Enabled defaults to false, as in kops.
	Enabled *bool `json:"enabled,omitempty"`
	// Managed false tells kops not to deploy cert-manager; this build never does.
	Managed *bool `json:"managed,omitempty"`
}

// CertManagerEnabled is kops's IsCertManagerEnabled: spec.certManager.enabled, whoever deploys it.
func (s *ClusterSpec) CertManagerEnabled() bool {
	c := s.CertManager
	return c != nil && c.Enabled != nil && *c.Enabled
}
