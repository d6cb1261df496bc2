package models

// The built-in CoreDNS addon, as named in the bootstrap channel. Its template is rendered by
// pkg/operators/coredns, the one CoreDNS renderer.
const (
	CoreDNSAddonName = "coredns.addons.k8s.io"
	CoreDNSAddonID   = "k8s-1.12"
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
