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
	"maps"
	"slices"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// roleKinds maps kops's keys of spec.additionalPolicies and spec.externalPolicies (its instance
// group roles in lower case, and master, which kops's v1alpha2 reads as control-plane) to the kind
// of role this build names them by.
var roleKinds = map[string]string{"master": "masters", "control-plane": "masters", "node": "nodes", "bastion": "bastions", "apiserver": "apiservers"}

// additionalPolicyName is kops's name for the further inline policy of a role: additional.<role>.
func additionalPolicyName(role string) string { return "additional." + role }

// readAdditionalPolicies reads spec.additionalPolicies: per role key, a JSON list of IAM statements
// that kops adds to that role as a further inline policy, as the user wrote them. They are the
// user's own rights: the scope rules this build holds its own policies to do not apply to them
// (docs/terraform.md), but what kops would drop or AWS refuse is refused here, naming the key and
// the statement.
func (f *clusterFacts) readAdditionalPolicies(u kops.Unmodeled) error {
	v, ok, err := kopsField(u, "spec", "additionalPolicies")
	if err != nil || !ok {
		return err
	}
	byRole, isMap := v.(map[string]interface{})
	if !isMap {
		return fmt.Errorf("spec.additionalPolicies: must map role names (control-plane, node, bastion, apiserver) to JSON lists of IAM statements, not %T", v)
	}
	f.additionalPolicies = map[string][]awstasks.Statement{}
	for _, key := range slices.Sorted(maps.Keys(byRole)) {
		path := "spec.additionalPolicies." + key
		kind, known := roleKinds[key]
		if !known {
			return fmt.Errorf("%s: %q is not a role kops knows (control-plane, node, bastion, apiserver)", path, key)
		}
		if f.additionalPolicies[kind] != nil {
			return fmt.Errorf("%s: the control plane's policy is given under master and control-plane; keep one", path)
		}
		doc, isString := byRole[key].(string)
		if !isString {
			return fmt.Errorf("%s: must be a JSON list of IAM statements in a string (a YAML block: %s: |), not %T", path, key, byRole[key])
		}
		statements, err := parseStatements(path, doc)
		if err != nil {
			return err
		}
		f.additionalPolicies[kind] = statements
	}
	return nil
}
