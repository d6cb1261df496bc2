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

package awsmodel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/upup/pkg/fi"
)

// EC2 refuses user data over 16 KiB at terraform apply; update refuses it first, naming the group
// and how much of it is the group's own. The control plane's parts of ours leave it room.
func TestUserDataOverEC2sBoundRefused(t *testing.T) {
	base := modelContext(t, "", nil)
	ours, err := nodesetup.UserData(base.Cluster, base.InstanceGroups[0], base.Nodeup)
	require.NoError(t, err)
	room := MaxUserDataBytes - len(ours)
	require.Positive(t, room, "the control plane's own user data fits")
	for _, tc := range []struct {
		name    string
		own     int
		refused bool
	}{
		{"none of its own", 0, false},
		{"well within", room / 2, false},
		{"far over", MaxUserDataBytes, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				if tc.own > 0 {
					igs[0].Spec.AdditionalUserData = []kops.UserData{{Name: "big.sh", Type: "text/x-shellscript", Content: strings.Repeat("#", tc.own)}}
				}
			})
			c := &fi.ModelBuilderContext{}
			var buildErr error
			for _, b := range Builders(ctx) {
				if buildErr = b.Build(c); buildErr != nil {
					break
				}
			}
			if !tc.refused {
				assert.NoError(t, buildErr)
				return
			}
			require.Error(t, buildErr)
			assert.Contains(t, buildErr.Error(), `instance group "control-plane-us-east-2a": its user data is`)
			assert.Contains(t, buildErr.Error(), "over the 16384 EC2 accepts")
			assert.Contains(t, buildErr.Error(), "spec.additionalUserData")
		})
	}
}
