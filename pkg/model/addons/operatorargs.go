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

package addons

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// setKopsArgs appends kopsArgs ("--name=value") to the first container's arguments. A package
// setting one of those flags itself is refused: only kops knows the cluster's values.
func setKopsArgs(obj *unstructured.Unstructured, kopsArgs []string) error {
	if len(kopsArgs) == 0 {
		return nil
	}
	containers, _, err := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
	if err != nil || len(containers) == 0 {
		return fmt.Errorf("no containers: %v", err)
	}
	container, ok := containers[0].(map[string]interface{})
	if !ok {
		return fmt.Errorf("containers[0] is not an object")
	}
	args, _, err := unstructured.NestedStringSlice(container, "args")
	if err != nil {
		return fmt.Errorf("containers[0].args: %w", err)
	}
	for _, kopsArg := range kopsArgs {
		name, _, _ := strings.Cut(strings.TrimLeft(kopsArg, "-"), "=")
		for _, a := range args {
			given, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && given == name {
				return fmt.Errorf("containers[0].args sets %s: kops sets --%s from the cluster's spec", a, name)
			}
		}
	}
	if err := unstructured.SetNestedStringSlice(container, append(args, kopsArgs...), "args"); err != nil {
		return err
	}
	containers[0] = container
	return unstructured.SetNestedSlice(obj.Object, containers, "spec", "template", "spec", "containers")
}
