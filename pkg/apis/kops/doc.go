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
