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

package coredns

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
)

// ClusterSpec is the built-in addon's spec for a completed cluster, the image remapped by remapper
// (nil: none). Version stays empty: the built-in addon has no package version.
func ClusterSpec(dns *kops.KubeDNSConfig, remapper *assets.Remapper) (Spec, error) {
	if dns == nil {
		return Spec{}, fmt.Errorf("cluster has no spec.kubeDNS: complete it with kops.CompleteCluster first")
	}
	image := dns.CoreDNSImage
	if image == "" {
		image = DefaultImage
	}
	image, err := remapper.RemapImage(image)
	if err != nil {
		return Spec{}, fmt.Errorf("spec.kubeDNS.coreDNSImage: %w", err)
	}
	corefile := Corefile(dns)
	return Spec{Image: image, DNSDomain: dns.Domain, DNSIP: dns.ServerIP, Corefile: corefile, CorefileChecksum: CorefileChecksum(corefile)}, nil
}

// ClusterFacts are a completed cluster's facts, the autoscaler image remapped by remapper (nil: none).
func ClusterFacts(dns *kops.KubeDNSConfig, remapper *assets.Remapper) (Facts, error) {
	if dns == nil {
		return Facts{}, fmt.Errorf("cluster has no spec.kubeDNS: complete it with kops.CompleteCluster first")
	}
	if dns.CPURequest == nil || dns.MemoryRequest == nil || dns.MemoryLimit == nil {
		return Facts{}, fmt.Errorf("spec.kubeDNS cpuRequest, memoryRequest and memoryLimit must be set: complete the cluster first")
	}
	autoscaler, err := remapper.RemapImage(DefaultAutoscalerImage)
	if err != nil {
		return Facts{}, fmt.Errorf("remapping the CoreDNS autoscaler image: %w", err)
	}
	return Facts{
		AutoscalerImage: autoscaler,
		CPURequest:      dns.CPURequest.String(),
		MemoryRequest:   dns.MemoryRequest.String(),
		MemoryLimit:     dns.MemoryLimit.String(),
		Tolerations:     dns.Tolerations,
		Affinity:        dns.Affinity,
		PodAnnotations:  dns.PodAnnotations,
	}, nil
}
