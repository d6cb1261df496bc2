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

import "fmt"

type GroupPodMetadata struct {
	Mode   string
	Reason string
	// Derived means the cluster wrote no mode and the group's own settings let pods reach metadata.
	Derived bool
}

// PodMetadataFor returns ig's mode. Where the cluster wrote no mode and a node group itself allows
// metadata access, the group keeps it (Allow), so a spec valid for kops stays valid.
func (s *ClusterSpec) PodMetadataFor(ig *InstanceGroup) GroupPodMetadata {
	p := s.PodMetadataAccess
	switch {
	case p == nil || p.Mode == "":
		return GroupPodMetadata{Mode: "", Reason: fmt.Sprintf("cloud %q has no instance metadata service this build knows", s.CloudProvider)}
	case !p.ModeDefaulted:
		return GroupPodMetadata{Mode: p.Mode, Reason: "spec.podMetadataAccess.mode"}
	}
	if ig.Spec.Role == RoleNode && p.Mode == PodMetadataAccessBlock && s.CloudProvider == "aws" {
		if what := loosenedBy(ig); what != "" {
			return GroupPodMetadata{Mode: PodMetadataAccessAllow, Derived: true, Reason: fmt.Sprintf(
				"the group writes %s, which lets pods reach instance metadata, and spec.podMetadataAccess.mode is not set", what)}
		}
	}
	return GroupPodMetadata{Mode: p.Mode, Reason: "the default (spec.podMetadataAccess.mode is not set)"}
}

func loosenedBy(ig *InstanceGroup) string {
	m := ig.Spec.InstanceMetadata
	if m == nil {
		return ""
	}
	switch {
	case m.HTTPPutResponseHopLimit != nil && *m.HTTPPutResponseHopLimit > DefaultHopLimit:
		return fmt.Sprintf("spec.instanceMetadata.httpPutResponseHopLimit: %d", *m.HTTPPutResponseHopLimit)
	case m.HTTPTokens != nil && *m.HTTPTokens == HTTPTokensOptional:
		return "spec.instanceMetadata.httpTokens: optional"
	}
	return ""
}
