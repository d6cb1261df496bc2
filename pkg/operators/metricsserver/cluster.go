package metricsserver

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
)

// ClusterSpec is the spec of the built-in addon for a cluster with spec.metricsServer enabled:
// the image of spec.metricsServer.image or DefaultImage, remapped by remapper (nil: none), and the
// insecure flag. Version stays empty: the built-in addon has no package version.
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
