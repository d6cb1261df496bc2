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
	"fmt"
	"strings"

	"k8s.io/kops/pkg/apis/kops/validation"
)

// checkRegion requires --zones to lie in one region and returns it ("" where zones name no region).
func checkRegion(cloud string, zones []string) (string, error) {
	byRegion := map[string][]string{}
	var regions []string
	for _, z := range zones {
		r, problem := validation.ZoneRegion(cloud, z)
		if problem != "" {
			return "", fmt.Errorf("--zones: %q %s", z, problem)
		}
		if _, seen := byRegion[r]; !seen {
			regions = append(regions, r)
		}
		byRegion[r] = append(byRegion[r], z)
	}
	if len(regions) > 1 {
		var parts []string
		for _, r := range regions {
			parts = append(parts, fmt.Sprintf("%s (%s)", r, strings.Join(byRegion[r], ",")))
		}
		return "", fmt.Errorf("--zones span regions %s: a cluster lies in one region", strings.Join(parts, " and "))
	}
	if len(regions) == 0 {
		return "", nil
	}
	return regions[0], nil
}
