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

package cloudup

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

// derivedPodMetadata warns of each group that keeps metadata access because the cluster wrote no
// mode (kops.ClusterSpec.PodMetadataFor), saying how to block it.
func derivedPodMetadata(cluster *kops.Cluster, groups []*kops.InstanceGroup, source string) []kopscodecs.Warning {
	var warnings []kopscodecs.Warning
	for _, ig := range groups {
		m := cluster.Spec.PodMetadataFor(ig)
		if !m.Derived {
			continue
		}
		warnings = append(warnings, kopscodecs.Warning{Source: source, Text: fmt.Sprintf(
			"instance group %q: pods on its machines keep access to instance metadata (mode %s): %s; "+
				"to block them, set spec.podMetadataAccess.mode: Block and the group's httpPutResponseHopLimit to 1 (and httpTokens to required)",
			ig.Name, m.Mode, m.Reason)})
	}
	return warnings
}

// PodMetadataByGroup is what `kops get cluster --full` says of each group's mode.
func PodMetadataByGroup(completed *kops.Cluster, groups []*kops.InstanceGroup) []string {
	var lines []string
	for _, ig := range groups {
		m := completed.Spec.PodMetadataFor(ig)
		if m.Mode == "" {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s: %s, %s", ig.Name, m.Mode, m.Reason))
	}
	return lines
}
