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

package kopscodecs

import (
	"reflect"

	"k8s.io/kops/pkg/apis/kops"
)

// knownKopsFields lists real kops fields this build does not model, only so that one resembling a
// modeled field (networkID, networkCIDR) is not reported as a typo.
var knownKopsFields = map[reflect.Type][]string{
	reflect.TypeOf(kops.ClusterSpec{}): {
		"additionalPolicies", "additionalSANs", "api", "awsLoadBalancerController",
		"cloudConfig", "cloudControllerManager", "cloudLabels", "clusterAutoscaler",
		"clusterDNSDomain", "containerd", "dnsControllerGossipConfig", "dnsZone", "docker",
		"encryptionConfig", "etcdClusters", "externalCloudControllerManager", "externalDns",
		"externalPolicies", "fileAssets", "gossipConfig", "hooks", "iam", "karpenter", "keyStore",
		"kubeAPIServer", "kubeControllerManager", "kubeProxy", "kubeScheduler", "kubelet",
		"kubernetesApiAccess", "masterInternalName", "masterKubelet", "masterPublicName",
		"networkID", "nodeAuthorization", "nodePortAccess", "nodeProblemDetector",
		"nodeTerminationHandler", "podCIDR", "podIdentityWebhook", "rollingUpdate", "secretStore",
		"serviceAccountIssuerDiscovery", "snapshotController", "sshAccess", "sshKeyName", "tagSubnets",
		"target", "topology", "updatePolicy", "useHostCertificates",
	},
	reflect.TypeOf(kops.CertManagerConfig{}): {
		"defaultIssuer", "featureGates", "hostedZoneIDs", "image", "nameservers",
	},
	reflect.TypeOf(kops.NetworkingSpec{}): {
		"classic", "external", "kopeio", "lyftvpc", "romana",
	},
	reflect.TypeOf(kops.CiliumNetworkingSpec{}): {
		"agentLabels", "agentPodAnnotations", "agentPrometheusPort", "autoDirectNodeRoutes",
		"bpfCTGlobalAnyMax", "bpfCTGlobalTCPMax", "bpfLBAlgorithm", "bpfLBMapMax", "bpfLBMaglevTableSize",
		"bpfLBSockHostNSOnly", "bpfNATGlobalMax", "bpfNeighGlobalMax", "bpfPolicyMapMax", "chainingMode",
		"clusterID", "clusterName", "cniExclusive", "cpuRequest", "disableCNPStatusUpdates",
		"disableEndpointCRD", "disableMasquerade", "enableBPFMasquerade", "enableEncryption",
		"enableEndpointHealthChecking", "enableL7Proxy", "enableLocalRedirectPolicy", "enableNodePort",
		"enablePolicy", "enablePrometheusMetrics", "enableRemoteNodeIdentity", "enableServiceTopology",
		"enableUnreachableRoutes", "encryptionType", "etcdManaged", "gatewayAPI", "hubble",
		"identityAllocationMode", "identityChangeGracePeriod", "ingress", "installIptablesRules",
		"masquerade", "memoryRequest", "metrics", "monitorAggregation", "nodeEncryption",
		"operatorPodAnnotations", "preallocateBPFMaps", "registry", "sidecarIstioProxyImage",
		"toFQDNsDNSRejectResponseCode", "toFQDNsEnablePoller", "tunnel", "version",
	},
	reflect.TypeOf(kops.KubeDNSConfig{}): {
		"cacheMaxConcurrent", "cacheMaxSize", "cpaImage", "nodeLocalDNS", "replicas",
	},
	reflect.TypeOf(kops.ClusterSubnetSpec{}): {
		"additionalRoutes", "egress", "ipv6CIDR", "publicIP",
	},
	reflect.TypeOf(kops.AssetsSpec{}): {
		"fileRepository",
	},
	reflect.TypeOf(kops.InstanceGroupSpec{}): {
		"additionalSecurityGroups", "associatePublicIP", "cloudLabels",
		"compressUserData", "containerd", "cpuCredits", "detailedInstanceMonitoring",
		"externalLoadBalancers", "fileAssets", "guestAccelerators", "hooks", "iam",
		"instanceInterruptionBehavior", "instanceProtection", "kubelet", "manager", "maxPrice",
		"mixedInstancesPolicy", "nodeLabels", "packages", "rollingUpdate", "rootVolumeEncryption",
		"rootVolumeIOPS", "rootVolumeSize", "rootVolumeThroughput", "rootVolumeType",
		"securityGroupOverride", "suspendProcesses", "sysctlParameters", "taints", "tenancy",
		"volumeMounts", "volumes", "warmPool", "zones",
	},
}

func knownKopsField(t reflect.Type, name string) bool {
	for _, known := range knownKopsFields[t] {
		if known == name {
			return true
		}
	}
	return false
}
