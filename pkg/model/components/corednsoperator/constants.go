// Package corednsoperator describes how kops runs the cluster-addons CoreDNS operator, and in
// particular what the operator is allowed to do. The operator's rights are kept as data (Rights)
// so that the RBAC objects, the documentation table and the tests all derive from one list and
// cannot drift apart.
package corednsoperator

// Where the operator itself runs. It lives in its own namespace so that its leader-election lease
// and its events are not mixed with kube-system, and its write rights there stay small.
const (
	Namespace      = "coredns-operator-system"
	ServiceAccount = "coredns-operator"
	DeploymentName = "coredns-operator"
	// LeaseName is the leader-election lease; the operator may only update this one lease.
	LeaseName = "coredns-operator-leader"
	// RBACName names the Role and RoleBinding in every namespace the operator has rights in.
	RBACName = "coredns-operator"
	// AddonName is the kops addon that ships the operator; its objects carry it as a label.
	AddonName = "operator.coredns.addons.x-k8s.io"
)

// WatchNamespace is where the CoreDNS objects live: the CoreDNS custom resource and everything
// the operator creates from it.
const WatchNamespace = "kube-system"

// The CoreDNS custom resource the operator reconciles.
const (
	CRDGroup    = "addons.x-k8s.io"
	CRDResource = "corednses"
	CRDName     = CRDResource + "." + CRDGroup
)

// The objects the operator manages in WatchNamespace. kops pre-creates ServiceAccount coredns and
// the system:coredns ClusterRole/ClusterRoleBinding, so the operator never needs RBAC rights.
const (
	CoreDNSDeployment     = "coredns"
	CoreDNSService        = "kube-dns"
	CoreDNSConfigMap      = "coredns"
	CoreDNSServiceAccount = "coredns"
	// CoreDNSResource is the name kops gives the CoreDNS object, the operator's instructions.
	CoreDNSResource = "coredns"
)
