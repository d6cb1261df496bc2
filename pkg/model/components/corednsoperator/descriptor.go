package corednsoperator

import (
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/model/components/operator"
)

// MaxReplicas bounds the CoreDNS Deployment's replica count. kops's built-in addon leaves the count
// to its autoscaler (one replica per 16 nodes); 50 replicas serve an 800-node cluster, far beyond
// what this experimental mode is used for, while keeping a runaway or hostile count from filling
// the nodes.
const MaxReplicas = 50

// PolicyName names the admission policy and its binding.
const PolicyName = "coredns-operator-scope"

// Username is the identity the operator's requests carry.
const Username = "system:serviceaccount:" + Namespace + ":" + ServiceAccount

// ProbeConfigMap names the object of the enforcement probe. The operator manages no ConfigMap of
// this name, so the admission policy must deny the operator creating it; channels sends that
// request (as a dry run) until it is denied, before it grants the operator any right.
const ProbeConfigMap = "coredns-operator-enforcement-probe"

// EventReporter is the component the operator's events must name as their source.
const EventReporter = DeploymentName

// Descriptor is the CoreDNS operator as data: everything that confines it is generated from this
// value by package operator. It is built afresh on each call, so no caller can change another's.
func Descriptor() *operator.Descriptor {
	return &operator.Descriptor{
		Subject:        "CoreDNS",
		AddonName:      AddonName,
		Namespace:      Namespace,
		ServiceAccount: ServiceAccount,
		DeploymentName: DeploymentName,
		LeaseName:      LeaseName,
		RBACName:       RBACName,
		PolicyName:     PolicyName,
		ProbeConfigMap: ProbeConfigMap,
		WatchNamespace: WatchNamespace,
		CRD:            crd(),
		Instructions:   CoreDNSResource,
		Managed: []operator.Managed{
			{Kind: "Deployment", Name: CoreDNSDeployment},
			{Kind: "Service", Name: CoreDNSService},
			{Kind: "ConfigMap", Name: CoreDNSConfigMap},
			{Kind: "ServiceAccount", Name: CoreDNSServiceAccount},
		},
		MaxReplicas: MaxReplicas,
		Rights:      append([]Right(nil), Rights...),
		Pod: operator.PodAllowance{
			PriorityClassName: "system-cluster-critical",
			NodeSelector:      map[string]string{"kubernetes.io/os": "linux"},
			Tolerations:       []string{"CriticalAddonsOnly"},
		},
	}
}

// Scope is what the operator may write, as kops renders it (see operator.Scope).
type Scope = operator.Scope

// ScopeFromManifest picks the managed objects out of the built-in addon's rendered manifest.
func ScopeFromManifest(manifest []byte) (*Scope, error) {
	return Descriptor().ScopeFromManifest(manifest)
}

// Labels are set on every object kops generates for the operator.
func Labels() map[string]string { return Descriptor().Labels() }

// RBACObjects are the operator's Roles and RoleBindings, generated from Rights.
func RBACObjects() []runtime.Object { return Descriptor().RBACObjects() }

// RBACManifest is RBACObjects as a YAML stream.
func RBACManifest() ([]byte, error) { return Descriptor().RBACManifest() }

// RightsMarkdown is the rights table of docs/addon-operators.md.
func RightsMarkdown() string { return Descriptor().RightsMarkdown() }

// PolicyObjects are the admission policy and its binding confining the operator to s.
func PolicyObjects(s *Scope) []runtime.Object { return operator.PolicyObjects(s) }

// PolicyManifest is PolicyObjects as a YAML stream.
func PolicyManifest(s *Scope) ([]byte, error) { return operator.PolicyManifest(s) }

// PolicyMarkdown is the policy as shown in the docs.
func PolicyMarkdown(s *Scope) string { return operator.PolicyMarkdown(s) }

// ProbeObject is the object of the enforcement probe.
func ProbeObject() map[string]interface{} { return Descriptor().ProbeObject() }
