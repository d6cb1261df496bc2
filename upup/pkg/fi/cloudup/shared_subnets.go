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

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

// sharedSubnetZones notes shared subnets without a zone: kops reads it from the cloud, this build
// needs none (instances are placed by subnet id).
func sharedSubnetZones(cluster *kops.Cluster, source string) []kopscodecs.Warning {
	if cluster.Spec.CloudProvider != "aws" {
		return nil
	}
	var notes []kopscodecs.Warning
	for i, s := range cluster.Spec.Subnets {
		if s.ID == "" || s.Zone != "" {
			continue
		}
		notes = append(notes, kopscodecs.Warning{Source: source, Text: fmt.Sprintf(
			"spec.subnets[%d].zone: not set for shared subnet %q (%s): kops reads it from the cloud by id; this build places instances by subnet id and needs no zone",
			i, s.Name, s.ID)})
	}
	return notes
}
