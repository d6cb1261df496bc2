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
	"strings"

	"k8s.io/kops/pkg/apis/kops"
)

// kopsField reads an unmodeled kops field that decides what the machines' IAM roles must grant;
// ok is false when a map on path is missing.
func kopsField(u kops.Unmodeled, path ...string) (value interface{}, ok bool, err error) {
	for _, f := range u {
		n := len(f.Path)
		if n > len(path) || !keysEqual(f.Path, path[:n]) {
			continue
		}
		value = f.Value
		for i := n; i < len(path); i++ {
			if value == nil {
				return nil, false, nil
			}
			m, isMap := value.(map[string]interface{})
			if !isMap {
				return nil, false, fmt.Errorf("%s: must be a map, not %T", strings.Join(path[:i], "."), value)
			}
			if value, ok = m[path[i]]; !ok {
				return nil, false, nil
			}
		}
		return value, value != nil, nil
	}
	return nil, false, nil
}

func keysEqual(p kops.FieldPath, keys []string) bool {
	for i, e := range p {
		if e.IsIndex || e.Key != keys[i] {
			return false
		}
	}
	return true
}

func kopsBool(u kops.Unmodeled, def bool, path ...string) (bool, error) {
	v, ok, err := kopsField(u, path...)
	if err != nil || !ok {
		return def, err
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, fmt.Errorf("%s: must be true or false, not %v", strings.Join(path, "."), v)
	}
	return b, nil
}

func kopsString(u kops.Unmodeled, path ...string) (string, error) {
	v, ok, err := kopsField(u, path...)
	if err != nil || !ok {
		return "", err
	}
	s, isString := v.(string)
	if !isString {
		return "", fmt.Errorf("%s: must be a string, not %v", strings.Join(path, "."), v)
	}
	return s, nil
}

func kopsList(u kops.Unmodeled, path ...string) ([]map[string]interface{}, error) {
	v, ok, err := kopsField(u, path...)
	if err != nil || !ok {
		return nil, err
	}
	items, isList := v.([]interface{})
	if !isList {
		return nil, fmt.Errorf("%s: must be a list, not %T", strings.Join(path, "."), v)
	}
	out := make([]map[string]interface{}, 0, len(items))
	for i, item := range items {
		m, isMap := item.(map[string]interface{})
		if !isMap {
			return nil, fmt.Errorf("%s[%d]: must be a map, not %T", strings.Join(path, "."), i, item)
		}
		out = append(out, m)
	}
	return out, nil
}

func isSet(v interface{}) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case []interface{}:
		return len(x) > 0
	case map[string]interface{}:
		return len(x) > 0
	}
	return true
}

func kopsStrings(u kops.Unmodeled, path ...string) ([]string, error) {
	v, ok, err := kopsField(u, path...)
	if err != nil || !ok {
		return nil, err
	}
	items, isList := v.([]interface{})
	if !isList {
		return nil, fmt.Errorf("%s: must be a list, not %T", strings.Join(path, "."), v)
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		s, isString := item.(string)
		if !isString || s == "" {
			return nil, fmt.Errorf("%s[%d]: must be a security group ID, not %v", strings.Join(path, "."), i, item)
		}
		out = append(out, s)
	}
	return out, nil
}
