// Package kops holds the kops.k8s.io/v1alpha2 API types that this build models: Cluster and
// InstanceGroup, their defaults, and decoding that keeps fields this build does not model.
//
// The types serialize exactly as kops's v1alpha2 types do, so a state store written by kops can be
// read here and the other way round. Fields that kops has and this build does not model are carried
// alongside the typed object (see Unmodeled) rather than dropped.
package kops

// GroupVersion is the only API version this build reads and writes.
const GroupVersion = "kops.k8s.io/v1alpha2"

// The kinds of this API version.
const (
	KindCluster       = "Cluster"
	KindInstanceGroup = "InstanceGroup"
	KindSSHCredential = "SSHCredential"
)

// LabelClusterName ties an InstanceGroup or an SSHCredential to its Cluster.
const LabelClusterName = "kops.k8s.io/cluster"
