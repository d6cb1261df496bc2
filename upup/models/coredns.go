package models

import (
	"fmt"
	"net/netip"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/model/components/coredns"
)

// The built-in CoreDNS addon, as named in the bootstrap channel.
const (
	CoreDNSAddonName = "coredns.addons.k8s.io"
	CoreDNSAddonID   = "k8s-1.12"
	CoreDNSTemplate  = "cloudup/resources/addons/coredns.addons.k8s.io/k8s-1.12.yaml.template"
)

// The addon that pre-creates the RBAC of CoreDNS when its operator runs it: the same objects as the
// built-in addon's, so switching between the two changes no rights.
const (
	CoreDNSRBACAddonName = "coredns-rbac.addons.k8s.io"
	CoreDNSRBACAddonID   = "k8s-1.12"
	CoreDNSRBACTemplate  = "cloudup/resources/addons/coredns-rbac.addons.k8s.io/k8s-1.12.yaml.template"
)

// RenderCoreDNSRBAC renders the pre-created RBAC of CoreDNS.
func RenderCoreDNSRBAC() ([]byte, error) {
	return Render(CoreDNSRBACTemplate, nil)
}

// Pinned images: a tag, never :latest, so that the same kops version always deploys the same
// bits. The CoreDNS image runs as the distroless nonroot user with cap_net_bind_service on its
// binary, which the manifest's runAsNonRoot settings rely on.
const (
	DefaultCoreDNSImage           = "registry.k8s.io/coredns/coredns:v1.12.4"
	DefaultCoreDNSAutoscalerImage = "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0"
)

// CoreDNSData is what the CoreDNS template reads. Images are final (already remapped) and the
// Corefile is the exact ConfigMap content, so the template makes no decisions of its own.
type CoreDNSData struct {
	// Cluster is the completed cluster (kops.CompleteCluster); the template reads spec.kubeDNS.
	Cluster         *kops.Cluster
	Corefile        string
	Image           string
	AutoscalerImage string
}

// NewCoreDNSData derives the template data from a completed cluster: the Corefile from
// coredns.Corefile, the CoreDNS image from spec.kubeDNS.coreDNSImage or the pinned default, and
// both images remapped by remapper (nil means no remapping).
func NewCoreDNSData(cluster *kops.Cluster, remapper *assets.Remapper) (*CoreDNSData, error) {
	if cluster == nil || cluster.Spec.KubeDNS == nil {
		return nil, fmt.Errorf("cluster has no spec.kubeDNS: complete it with kops.CompleteCluster first")
	}
	dns := cluster.Spec.KubeDNS
	image := dns.CoreDNSImage
	if image == "" {
		image = DefaultCoreDNSImage
	}
	image, err := remapper.RemapImage(image)
	if err != nil {
		return nil, fmt.Errorf("spec.kubeDNS.coreDNSImage: %w", err)
	}
	autoscaler, err := remapper.RemapImage(DefaultCoreDNSAutoscalerImage)
	if err != nil {
		return nil, fmt.Errorf("remapping the CoreDNS autoscaler image: %w", err)
	}
	return &CoreDNSData{Cluster: cluster, Corefile: coredns.Corefile(dns), Image: image, AutoscalerImage: autoscaler}, nil
}

// RenderCoreDNS renders the built-in CoreDNS addon manifest. It checks first the values the
// template would otherwise render as empty or broken YAML, naming the field to fix.
func RenderCoreDNS(data *CoreDNSData) ([]byte, error) {
	if err := data.validate(); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", CoreDNSAddonName, err)
	}
	return Render(CoreDNSTemplate, data)
}

func (d *CoreDNSData) validate() error {
	if d == nil || d.Cluster == nil || d.Cluster.Spec.KubeDNS == nil {
		return fmt.Errorf("cluster has no spec.kubeDNS: complete it with kops.CompleteCluster first")
	}
	dns := d.Cluster.Spec.KubeDNS
	if _, err := netip.ParseAddr(dns.ServerIP); err != nil {
		return fmt.Errorf("spec.kubeDNS.serverIP %q is not an IP address", dns.ServerIP)
	}
	if dns.CPURequest == nil || dns.MemoryRequest == nil || dns.MemoryLimit == nil {
		return fmt.Errorf("spec.kubeDNS cpuRequest, memoryRequest and memoryLimit must be set: complete the cluster first")
	}
	switch {
	case d.Image == "":
		return fmt.Errorf("no CoreDNS image")
	case d.AutoscalerImage == "":
		return fmt.Errorf("no CoreDNS autoscaler image")
	case d.Corefile == "":
		return fmt.Errorf("empty Corefile")
	}
	return nil
}
