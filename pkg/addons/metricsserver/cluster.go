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

package metricsserver

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
)

// ClusterSpec is the built-in addon's spec, the image remapped by remapper (nil: none). Version
// stays empty: the built-in addon has no package version.
func ClusterSpec(m *kops.MetricsServerConfig, remapper *assets.Remapper) (Spec, error) {
	if m == nil {
		return Spec{}, fmt.Errorf("cluster has no spec.metricsServer")
	}
	image := m.Image
	if image == "" {
		image = DefaultImage
	}
	image, err := remapper.RemapImage(image)
	if err != nil {
		return Spec{}, fmt.Errorf("spec.metricsServer.image: %w", err)
	}
	return Spec{Image: image, Insecure: m.Insecure != nil && *m.Insecure}, nil
}
