package coredns

import (
	"k8s.io/kops/pkg/templates"
	"k8s.io/kops/upup/models"
)

// The built-in CoreDNS addon, as named in the bootstrap channel; Render renders its template.
const (
	AddonName = "coredns.addons.k8s.io"
	AddonID   = "k8s-1.12"
)

// The addon that pre-creates the RBAC of CoreDNS when its operator runs it: the same objects as the
// built-in addon's, so switching between the two changes no rights.
const (
	RBACAddonName = "coredns-rbac.addons.k8s.io"
	RBACAddonID   = "k8s-1.12"
	RBACTemplate  = "cloudup/resources/addons/coredns-rbac.addons.k8s.io/k8s-1.12.yaml.template"
)

// RenderRBAC renders the pre-created RBAC of CoreDNS.
func RenderRBAC() ([]byte, error) {
	return templates.Render(models.FS(), RBACTemplate, nil, models.Partials)
}
