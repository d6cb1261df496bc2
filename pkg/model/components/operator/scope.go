package operator

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

// Scope is what the operator may write: the managed objects as kops itself renders them for this
// cluster. The admission policy is generated from it, so that what the operator may create is
// what kops would deploy, field by security-relevant field, and the two cannot drift apart. A
// field is nil when the descriptor manages no object of its kind.
type Scope struct {
	Descriptor     *Descriptor
	Deployment     *appsv1.Deployment
	Service        *corev1.Service
	ServiceAccount *corev1.ServiceAccount
	ConfigMap      *corev1.ConfigMap
}

// ScopeFromManifest picks d's managed objects out of a rendered manifest, and checks that they
// have what the policy relies on (a non-root user, a cluster IP, ...): a template change that
// drops one is an error here rather than a policy that admits more.
func (d *Descriptor) ScopeFromManifest(manifest []byte) (*Scope, error) {
	objects, err := kubemanifest.DecodeStrict(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading the %s manifest the policy is derived from: %w", d.Subject, err)
	}
	s := &Scope{Descriptor: d}
	for _, o := range objects {
		if o.Typed.GetNamespace() != d.WatchNamespace || !d.manages(o.Kind, o.Typed.GetName()) {
			continue
		}
		switch typed := o.Typed.(type) {
		case *appsv1.Deployment:
			s.Deployment = typed
		case *corev1.Service:
			s.Service = typed
		case *corev1.ServiceAccount:
			s.ServiceAccount = typed
		case *corev1.ConfigMap:
			s.ConfigMap = typed
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("the %s manifest the policy is derived from: %w", d.Subject, err)
	}
	return s, nil
}

func (d *Descriptor) manages(kind, name string) bool {
	for _, m := range d.Managed {
		if m.Kind == kind && m.Name == name {
			return true
		}
	}
	return false
}

// Validate checks that every managed object is present and fit to derive a policy from.
func (s *Scope) Validate() error {
	d := s.Descriptor
	for _, m := range d.Managed {
		if !s.has(m.Kind) {
			return fmt.Errorf("no %s %s/%s", m.Kind, d.WatchNamespace, m.Name)
		}
	}
	if s.Deployment != nil {
		if err := validateDeployment(s.Deployment); err != nil {
			return err
		}
		if sa := s.ServiceAccount; sa != nil && s.Deployment.Spec.Template.Spec.ServiceAccountName != sa.Name {
			return fmt.Errorf("Deployment %s: spec.template.spec.serviceAccountName is %q, want %q", s.Deployment.Name, s.Deployment.Spec.Template.Spec.ServiceAccountName, sa.Name)
		}
	}
	if s.Service != nil {
		if err := validateService(s.Service); err != nil {
			return err
		}
	}
	return nil
}

func (s *Scope) has(kind string) bool {
	switch kind {
	case "Deployment":
		return s.Deployment != nil
	case "Service":
		return s.Service != nil
	case "ServiceAccount":
		return s.ServiceAccount != nil
	case "ConfigMap":
		return s.ConfigMap != nil
	}
	return false
}

func validateDeployment(d *appsv1.Deployment) error {
	pod := d.Spec.Template.Spec
	sc := pod.SecurityContext
	switch {
	case pod.ServiceAccountName == "":
		return fmt.Errorf("Deployment %s: spec.template.spec.serviceAccountName must be set", d.Name)
	case len(pod.InitContainers) > 0 || len(pod.EphemeralContainers) > 0:
		return fmt.Errorf("Deployment %s: init or ephemeral containers are not supported", d.Name)
	case sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 || sc.RunAsGroup == nil || *sc.RunAsGroup == 0:
		return fmt.Errorf("Deployment %s: spec.template.spec.securityContext must set runAsNonRoot and a non-zero runAsUser and runAsGroup", d.Name)
	case sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault:
		return fmt.Errorf("Deployment %s: spec.template.spec.securityContext.seccompProfile must be RuntimeDefault", d.Name)
	case d.Spec.Selector == nil || len(d.Spec.Selector.MatchExpressions) > 0:
		return fmt.Errorf("Deployment %s: spec.selector must be matchLabels only", d.Name)
	}
	for i, c := range pod.Containers {
		if c.Image == "" {
			return fmt.Errorf("Deployment %s: spec.template.spec.containers[%d].image is empty", d.Name, i)
		}
	}
	return nil
}

func validateService(s *corev1.Service) error {
	svc := s.Spec
	switch {
	case svc.ClusterIP == corev1.ClusterIPNone:
		return fmt.Errorf("Service %s: spec.clusterIP must be an address or unset", s.Name)
	case svc.Type != "" && svc.Type != corev1.ServiceTypeClusterIP:
		return fmt.Errorf("Service %s: spec.type must be ClusterIP", s.Name)
	case len(svc.Selector) == 0 || len(svc.Ports) == 0:
		return fmt.Errorf("Service %s: spec.selector and spec.ports must be set", s.Name)
	}
	return nil
}
