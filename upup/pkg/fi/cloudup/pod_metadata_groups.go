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
	irsa := cluster.ServiceAccountRolesField()
	if p := cluster.Spec.PodMetadataAccess; irsa != "" && p != nil && p.Mode == kops.PodMetadataAccessAllow && !p.ModeDefaulted {
		warnings = append(warnings, kopscodecs.Warning{Source: source, Text: fmt.Sprintf(
			"spec.podMetadataAccess.mode: Allow lets every pod take the nodes' IAM role, next to the roles of their own %s gives them; "+
				"that suits a move to IAM roles for service accounts, and once no workload needs the nodes' role set the mode to Block",
			irsa)})
	}
	for _, ig := range groups {
		m := cluster.Spec.PodMetadataFor(ig)
		if !m.Derived {
			continue
		}
		warnings = append(warnings, kopscodecs.Warning{Source: source, Text: fmt.Sprintf(
			"instance group %q: pods on its machines keep access to instance metadata (mode %s): %s; "+
				"to block them, set spec.podMetadataAccess.mode: Block and the group's httpPutResponseHopLimit to 1 (and httpTokens to required)%s",
			ig.Name, m.Mode, m.Reason, irsaNote(irsa))})
	}
	return warnings
}

// irsaNote: with IRSA on, pods have their own roles and need no instance metadata for them.
func irsaNote(irsa string) string {
	if irsa == "" {
		return ""
	}
	return fmt.Sprintf("; with %s pods get their own roles without instance metadata", irsa)
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
