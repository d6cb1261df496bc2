package corednsoperator

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

// MaxReplicas bounds the CoreDNS Deployment's replica count. kops's built-in addon leaves the count
// to its autoscaler (one replica per 16 nodes); 50 replicas serve an 800-node cluster, far beyond
// what this experimental mode is used for, while keeping a runaway or hostile count from filling
// the nodes.
const MaxReplicas = 50

// Scope is what the operator may write: the CoreDNS objects kops's built-in addon renders for this
// cluster, with the CoreDNS image the operator is told to run. The admission policy is generated
// from it, so that what the operator may create is what kops itself would deploy, field by
// security-relevant field, and the two cannot drift apart.
type Scope struct {
	Deployment     *appsv1.Deployment
	Service        *corev1.Service
	ServiceAccount *corev1.ServiceAccount
	ConfigMap      *corev1.ConfigMap
}

// ScopeFromManifest picks the managed objects out of the built-in addon's rendered manifest, and
// checks that it has what the policy relies on (a non-root user, a cluster IP, ...): a template
// change that drops one is an error here rather than a policy that admits more.
func ScopeFromManifest(manifest []byte) (*Scope, error) {
	objects, err := kubemanifest.DecodeStrict(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading the CoreDNS manifest the policy is derived from: %w", err)
	}
	s := &Scope{}
	for _, o := range objects {
		if o.Typed.GetNamespace() != WatchNamespace {
			continue
		}
		switch typed := o.Typed.(type) {
		case *appsv1.Deployment:
			if typed.Name == CoreDNSDeployment {
				s.Deployment = typed
			}
		case *corev1.Service:
			if typed.Name == CoreDNSService {
				s.Service = typed
			}
		case *corev1.ServiceAccount:
			if typed.Name == CoreDNSServiceAccount {
				s.ServiceAccount = typed
			}
		case *corev1.ConfigMap:
			if typed.Name == CoreDNSConfigMap {
				s.ConfigMap = typed
			}
		}
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("the CoreDNS manifest the policy is derived from: %w", err)
	}
	return s, nil
}

func (s *Scope) validate() error {
	switch {
	case s.Deployment == nil:
		return fmt.Errorf("no Deployment %s/%s", WatchNamespace, CoreDNSDeployment)
	case s.Service == nil:
		return fmt.Errorf("no Service %s/%s", WatchNamespace, CoreDNSService)
	case s.ServiceAccount == nil:
		return fmt.Errorf("no ServiceAccount %s/%s", WatchNamespace, CoreDNSServiceAccount)
	case s.ConfigMap == nil:
		return fmt.Errorf("no ConfigMap %s/%s", WatchNamespace, CoreDNSConfigMap)
	}
	pod := s.Deployment.Spec.Template.Spec
	sc := pod.SecurityContext
	switch {
	case pod.ServiceAccountName != CoreDNSServiceAccount:
		return fmt.Errorf("Deployment %s: spec.template.spec.serviceAccountName is %q, want %q", CoreDNSDeployment, pod.ServiceAccountName, CoreDNSServiceAccount)
	case len(pod.InitContainers) > 0 || len(pod.EphemeralContainers) > 0:
		return fmt.Errorf("Deployment %s: init or ephemeral containers are not supported", CoreDNSDeployment)
	case sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 || sc.RunAsGroup == nil || *sc.RunAsGroup == 0:
		return fmt.Errorf("Deployment %s: spec.template.spec.securityContext must set runAsNonRoot and a non-zero runAsUser and runAsGroup", CoreDNSDeployment)
	case sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault:
		return fmt.Errorf("Deployment %s: spec.template.spec.securityContext.seccompProfile must be RuntimeDefault", CoreDNSDeployment)
	case s.Deployment.Spec.Selector == nil || len(s.Deployment.Spec.Selector.MatchExpressions) > 0:
		return fmt.Errorf("Deployment %s: spec.selector must be matchLabels only", CoreDNSDeployment)
	}
	for i, c := range pod.Containers {
		if c.Image == "" {
			return fmt.Errorf("Deployment %s: spec.template.spec.containers[%d].image is empty", CoreDNSDeployment, i)
		}
	}
	svc := s.Service.Spec
	switch {
	case svc.ClusterIP == "" || svc.ClusterIP == corev1.ClusterIPNone:
		return fmt.Errorf("Service %s: spec.clusterIP must be an address", CoreDNSService)
	case svc.Type != "" && svc.Type != corev1.ServiceTypeClusterIP:
		return fmt.Errorf("Service %s: spec.type must be ClusterIP", CoreDNSService)
	case len(svc.Selector) == 0 || len(svc.Ports) == 0:
		return fmt.Errorf("Service %s: spec.selector and spec.ports must be set", CoreDNSService)
	}
	return nil
}
