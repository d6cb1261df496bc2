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
	"regexp"
	"strings"
	"sync"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

const groupProfilePath = "spec.iam.profile"

// instanceProfileARN is an IAM instance profile's ARN. The account is not held to 12 digits: kops
// checks only that the ARN parses and names an instance profile, and its own tests use 13.
var instanceProfileARN = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^arn:[a-z-]+:iam::[0-9]+:instance-profile/([a-zA-Z0-9+=,.@_-]+/)*([a-zA-Z0-9+=,.@_-]{1,128})$`)
})

// groupProfile is the instance profile an instance group brings (spec.iam.profile): kops makes no
// role or profile for such a group, and its launch template names the profile by name, the last part
// of the ARN. Both are empty for a group without one.
func groupProfile(ig *kops.InstanceGroup) (arn, name string, err error) {
	v, set, err := kopsField(ig.Unmodeled, "spec", "iam", "profile")
	if err != nil || !set {
		return "", "", err
	}
	arn, isString := v.(string)
	m := instanceProfileARN().FindStringSubmatch(arn)
	if !isString || m == nil {
		return "", "", fmt.Errorf("instance group %q: %s: %v is not an instance profile's ARN (arn:<partition>:iam::<account>:instance-profile/<name>)", ig.Name, groupProfilePath, v)
	}
	return arn, m[2], nil
}

// checkGroupProfiles refuses, as kops does, one profile given to groups of different roles: the
// roles' rights differ, and one profile can hold only one role.
func checkGroupProfiles(ctx *model.KopsModelContext) error {
	first := map[string]*kops.InstanceGroup{}
	for _, ig := range ctx.InstanceGroups {
		arn, _, err := groupProfile(ig)
		if err != nil {
			return err
		}
		if arn == "" {
			continue
		}
		if other, seen := first[arn]; seen && sameKind(other.Spec.Role) != sameKind(ig.Spec.Role) {
			return fmt.Errorf("instance group %q: %s: %s is also instance group %q's, whose role is %s, not %s; give groups of different roles different profiles",
				ig.Name, groupProfilePath, arn, other.Name, other.Spec.Role, ig.Spec.Role)
		} else if !seen {
			first[arn] = ig
		}
	}
	return nil
}

// sameKind makes Master and ControlPlane one role, as kops's roles are.
func sameKind(role kops.InstanceGroupRole) string {
	kind, err := roleKind(role)
	if err != nil {
		return strings.ToLower(string(role))
	}
	return kind
}
