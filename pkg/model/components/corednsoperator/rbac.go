package corednsoperator

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// RBACObjects generates, for each namespace in Rights (in order of first appearance), a Role
// holding that namespace's rules in table order and a RoleBinding granting it to the operator's
// ServiceAccount. Only namespaced objects are produced: a ClusterRoleBinding would grant the
// rights in every namespace.
func RBACObjects() []runtime.Object {
	var namespaces []string
	rules := map[string][]rbacv1.PolicyRule{}
	for _, r := range Rights {
		if _, seen := rules[r.Namespace]; !seen {
			namespaces = append(namespaces, r.Namespace)
		}
		rules[r.Namespace] = append(rules[r.Namespace], r.PolicyRule())
	}

	var objects []runtime.Object
	for _, ns := range namespaces {
		objects = append(objects,
			&rbacv1.Role{
				TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
				ObjectMeta: objectMeta(ns),
				Rules:      rules[ns],
			},
			&rbacv1.RoleBinding{
				TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
				ObjectMeta: objectMeta(ns),
				RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: RBACName},
				Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: ServiceAccount, Namespace: Namespace}},
			})
	}
	return objects
}

func objectMeta(namespace string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: RBACName, Namespace: namespace, Labels: Labels()}
}

// RBACManifest is RBACObjects as a YAML stream, "---" separated with sorted keys, so the addon
// manifest (and its hash) only changes when Rights does.
func RBACManifest() ([]byte, error) {
	return manifest(RBACObjects())
}
