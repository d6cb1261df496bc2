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

// Lookup returns the value at the map keys of path inside the unmodeled fields, and whether one is
// there (and not null). A path through a list or a value that is no map finds nothing: callers that
// must tell a malformed value from a missing one read the field themselves.
func (u Unmodeled) Lookup(path ...string) (interface{}, bool) {
	for _, f := range u {
		n := len(f.Path)
		if n > len(path) || !keysAre(f.Path, path[:n]) {
			continue
		}
		value := f.Value
		for _, key := range path[n:] {
			m, isMap := value.(map[string]interface{})
			if !isMap {
				return nil, false
			}
			value = m[key]
		}
		return value, value != nil
	}
	return nil, false
}

func keysAre(p FieldPath, keys []string) bool {
	for i, e := range p {
		if e.IsIndex || e.Key != keys[i] {
			return false
		}
	}
	return true
}

// ServiceAccountRolesField names the kops field that gives pods IAM roles of their own through
// their service accounts (IRSA), or is empty when none does: useServiceAccountExternalPermissions
// (kops's components) or a non-empty serviceAccountExternalPermissions (the user's workloads).
func (c *Cluster) ServiceAccountRolesField() string {
	if v, _ := c.Unmodeled.Lookup("spec", "iam", "useServiceAccountExternalPermissions"); v == true {
		return "spec.iam.useServiceAccountExternalPermissions"
	}
	if v, _ := c.Unmodeled.Lookup("spec", "iam", "serviceAccountExternalPermissions"); v != nil {
		if list, isList := v.([]interface{}); isList && len(list) > 0 {
			return "spec.iam.serviceAccountExternalPermissions"
		}
	}
	return ""
}
