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
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// parseStatements reads a user's inline policy as kops reads it: a JSON list of statements. Each
// statement's Action and Resource may be a string or a list; the keys kops drops (NotAction,
// NotResource) and Principal, which AWS refuses in a role's policy, are refused rather than dropped.
func parseStatements(path, doc string) ([]awstasks.Statement, error) {
	var raw []map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: must be a JSON list of policy statements ([{\"Effect\": \"Allow\", \"Action\": [...], \"Resource\": [...]}]): %v", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: has more after its JSON list", path)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("%s: has no statement", path)
	}
	out := make([]awstasks.Statement, 0, len(raw))
	for i, fields := range raw {
		at := fmt.Sprintf("%s[%d]", path, i)
		var s awstasks.Statement
		// In order, so that the same input always names the same problem.
		for _, key := range slices.Sorted(maps.Keys(fields)) {
			value := fields[key]
			var err error
			switch key {
			case "Sid":
				err = json.Unmarshal(value, &s.Sid)
			case "Effect":
				err = json.Unmarshal(value, &s.Effect)
				if err == nil && s.Effect != "Allow" && s.Effect != "Deny" {
					err = fmt.Errorf("must be Allow or Deny, not %q", s.Effect)
				}
			case "Action":
				s.Action, err = stringOrList(value)
			case "Resource":
				s.Resource, err = stringOrList(value)
			case "Condition":
				s.Condition, err = readCondition(value)
			case "Principal":
				err = fmt.Errorf("a policy on a role names no principal (AWS refuses it); remove it")
			default:
				// kops reads Effect, Action, Resource, Condition and Principal only and drops the rest
				// (NotAction, NotResource) without a word, which would grant something else than written.
				err = fmt.Errorf("is not supported (kops drops it when it writes the policy, so the rights would differ from what is written); use Sid, Effect, Action, Resource and Condition")
			}
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %v", at, key, err)
			}
		}
		for _, required := range []struct {
			key     string
			missing bool
		}{{"Effect", s.Effect == ""}, {"Action", len(s.Action) == 0}, {"Resource", len(s.Resource) == 0}} {
			if required.missing {
				return nil, fmt.Errorf("%s.%s: must be set", at, required.key)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func stringOrList(value json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(value, &one); err == nil {
		if one == "" {
			return nil, fmt.Errorf("must not be empty")
		}
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(value, &list); err != nil {
		return nil, fmt.Errorf("must be a string or a list of strings")
	}
	if slices.Contains(list, "") {
		return nil, fmt.Errorf("must not hold an empty string")
	}
	return list, nil
}

// readCondition reads operator -> key -> value or values.
func readCondition(value json.RawMessage) (map[string]map[string][]string, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(value, &raw); err != nil {
		return nil, fmt.Errorf("must map operators to keys and values")
	}
	out := map[string]map[string][]string{}
	for op, keys := range raw {
		out[op] = map[string][]string{}
		for key, v := range keys {
			values, err := stringOrList(v)
			if err != nil {
				var b bool
				if json.Unmarshal(v, &b) != nil {
					return nil, fmt.Errorf("%s %s: %v", op, key, err)
				}
				values = []string{fmt.Sprint(b)}
			}
			out[op][key] = values
		}
	}
	return out, nil
}
