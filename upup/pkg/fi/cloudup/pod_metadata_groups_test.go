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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
)

// TestPodMetadataWarningsWithIRSA: update warns where pods keep the nodes' role next to roles of
// their own (Allow written, or a group that keeps access because no mode is written), and says
// nothing of Block or of Forward, kube2iam next to IRSA being the way workloads move off it.
func TestPodMetadataWarningsWithIRSA(t *testing.T) {
	irsaOn := kops.UnmodeledField{Path: kops.FieldPath{{Key: "spec"}, {Key: "iam"}},
		Value: map[string]interface{}{"useServiceAccountExternalPermissions": true}}
	hopLimit3 := int64(3)
	cases := []struct {
		name  string
		mode  string
		irsa  bool
		loose bool
		want  []string
	}{
		{"Block with IRSA", kops.PodMetadataAccessBlock, true, false, nil},
		{"Forward with IRSA", kops.PodMetadataAccessForward, true, false, nil},
		{"Allow without IRSA", kops.PodMetadataAccessAllow, false, false, nil},
		{"Allow with IRSA", kops.PodMetadataAccessAllow, true, false, []string{
			"spec.podMetadataAccess.mode: Allow lets every pod take the nodes' IAM role, next to the roles of their own spec.iam.useServiceAccountExternalPermissions gives them",
		}},
		{"no mode, a loose group, IRSA", "", true, true, []string{
			`instance group "nodes-us-east-2a": pods on its machines keep access to instance metadata (mode Allow)`,
			"; with spec.iam.useServiceAccountExternalPermissions pods get their own roles without instance metadata",
		}},
		{"no mode, a loose group, no IRSA", "", false, true, []string{`instance group "nodes-us-east-2a": pods on its machines keep access`}},
		{"no mode, IRSA", "", true, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cluster, groups, err := NewCluster(NewClusterOptions{Name: "irsa.example.com", Zones: []string{"us-east-2a"}})
			require.NoError(t, err)
			cluster.Spec.PodMetadataAccess = nil
			if c.mode != "" {
				cluster.Spec.PodMetadataAccess = &kops.PodMetadataAccessSpec{Mode: c.mode}
				if c.mode == kops.PodMetadataAccessForward {
					cluster.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{BaseRoleARN: "arn:aws:iam::123456789012:role/"}
				}
			}
			if c.irsa {
				cluster.Unmodeled = append(cluster.Unmodeled, irsaOn)
			}
			for _, g := range groups {
				g.Spec.InstanceMetadata = nil
				if c.loose && g.Spec.Role == kops.RoleNode {
					g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPPutResponseHopLimit: &hopLimit3}
				}
			}
			completed := kops.CompleteCluster(cluster, "memfs://store")
			require.NotNil(t, completed)
			var texts []string
			for _, w := range derivedPodMetadata(completed, groups, "memfs://store/irsa.example.com/config") {
				texts = append(texts, w.Text)
			}
			if len(c.want) == 0 {
				assert.Empty(t, texts)
				return
			}
			require.Len(t, texts, 1)
			for _, want := range c.want {
				assert.Contains(t, texts[0], want)
			}
			if !c.irsa {
				assert.NotContains(t, texts[0], "spec.iam", "no IRSA, no word of it")
			}
		})
	}
}
