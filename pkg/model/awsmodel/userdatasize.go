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
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
)

// MaxUserDataBytes is the most user data EC2 accepts for an instance, before base64.
const MaxUserDataBytes = 16 * 1024

// checkUserDataSize refuses a launch template EC2 would refuse at terraform apply: user data over
// MaxUserDataBytes. The error says how much of it is the group's own additionalUserData, the only
// part the user can shrink.
func checkUserDataSize(ig *kops.InstanceGroup, userData []byte) error {
	if len(userData) <= MaxUserDataBytes {
		return nil
	}
	own := 0
	for _, p := range ig.Spec.AdditionalUserData {
		own += len(p.Content)
	}
	return fmt.Errorf("instance group %q: its user data is %d bytes, over the %d EC2 accepts (spec.additionalUserData is %d bytes of it; the rest is the node setup and bootstrap this build writes): shorten spec.additionalUserData",
		ig.Name, len(userData), MaxUserDataBytes, own)
}
