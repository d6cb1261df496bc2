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

// Package kops holds the kops.k8s.io/v1alpha2 Cluster and InstanceGroup types this build models.
// They serialize exactly as kops's, and fields this build does not model are carried in Unmodeled
// rather than dropped, so state stores written by either can be read by the other.
package kops

const GroupVersion = "kops.k8s.io/v1alpha2"

const (
	KindCluster       = "Cluster"
	KindInstanceGroup = "InstanceGroup"
	KindSSHCredential = "SSHCredential"
)

// LabelClusterName ties an InstanceGroup or SSHCredential to its Cluster.
const LabelClusterName = "kops.k8s.io/cluster"
