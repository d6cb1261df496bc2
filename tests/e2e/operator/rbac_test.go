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

package operator

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/framework"
)

// identity is who asks.
type identity struct {
	name   string
	user   string
	groups []string
}

var (
	operatorID = saIdentity("operator", "coredns-operator-system", "coredns-operator")
	corednsID  = saIdentity("coredns", "kube-system", "coredns")
	unboundID  = identity{name: "unbound", user: "e2e-nobody"}
)

func saIdentity(name, namespace, sa string) identity {
	user, groups := framework.ServiceAccountUser(namespace, sa)
	return identity{name: name, user: user, groups: groups}
}

// access is one row of the matrix: may who do verb on group/resource[/subresource] in namespace
// (all namespaces or cluster-scoped when empty) named name (any when empty)?
type access struct {
	who                                identity
	verb, group, resource, subresource string
	namespace, name                    string
	allowed                            bool
}

func (a access) String() string {
	return fmt.Sprintf("%s %s %s/%s/%s %s/%s", a.who.name, a.verb, a.group, a.resource, a.subresource, a.namespace, a.name)
}

var matrix = []access{
	// What the operator reconciles, by name, in kube-system only.
	{operatorID, "patch", "apps", "deployments", "", "kube-system", "coredns", true},
	{operatorID, "update", "apps", "deployments", "", "kube-system", "coredns", true},
	{operatorID, "patch", "", "services", "", "kube-system", "kube-dns", true},
	{operatorID, "patch", "", "configmaps", "", "kube-system", "coredns", true},
	{operatorID, "update", "addons.x-k8s.io", "corednses", "status", "kube-system", "coredns", true},
	{operatorID, "watch", "addons.x-k8s.io", "corednses", "", "kube-system", "coredns", true},
	{operatorID, "list", "apps", "deployments", "", "kube-system", "coredns", true},
	{operatorID, "watch", "", "configmaps", "", "kube-system", "coredns", true},
	{operatorID, "get", "coordination.k8s.io", "leases", "", "coredns-operator-system", "coredns-operator-leader", true},
	{operatorID, "update", "coordination.k8s.io", "leases", "", "coredns-operator-system", "coredns-operator-leader", true},
	// The election reads, creates and updates its lease, never patches it (as client-go's LeaseLock).
	{operatorID, "patch", "coordination.k8s.io", "leases", "", "coredns-operator-system", "coredns-operator-leader", false},
	{operatorID, "create", "", "events", "", "kube-system", "", true},
	// What it may not do. Reads are by name only: no listing kube-system's ConfigMaps, Services or
	// Deployments (a list or watch is name-scoped only with fieldSelector metadata.name).
	{operatorID, "list", "", "configmaps", "", "kube-system", "", false},
	{operatorID, "watch", "", "services", "", "kube-system", "", false},
	{operatorID, "list", "apps", "deployments", "", "kube-system", "", false},
	{operatorID, "get", "", "configmaps", "", "kube-system", "kube-proxy", false},
	{operatorID, "list", "addons.x-k8s.io", "corednses", "", "kube-system", "", false},
	{operatorID, "list", "coordination.k8s.io", "leases", "", "coredns-operator-system", "", false},
	{operatorID, "patch", "apps", "deployments", "", "default", "coredns", false},
	{operatorID, "patch", "apps", "deployments", "", "kube-system", "kube-proxy", false},
	{operatorID, "delete", "", "services", "", "kube-system", "kube-proxy", false},
	{operatorID, "delete", "", "services", "", "kube-system", "kube-dns", false},
	{operatorID, "delete", "apps", "deployments", "", "kube-system", "coredns", false},
	{operatorID, "delete", "", "configmaps", "", "kube-system", "coredns", false},
	{operatorID, "create", "", "serviceaccounts", "token", "kube-system", "coredns", false},
	{operatorID, "update", "apps", "deployments", "scale", "kube-system", "coredns", false},
	{operatorID, "patch", "", "services", "status", "kube-system", "kube-dns", false},
	{operatorID, "create", "", "pods", "ephemeralcontainers", "kube-system", "", false},
	{operatorID, "update", "addons.x-k8s.io", "corednses", "", "kube-system", "coredns", false},
	{operatorID, "patch", "addons.x-k8s.io", "corednses", "", "kube-system", "coredns", false},
	{operatorID, "update", "addons.x-k8s.io", "corednses", "status", "kube-system", "other", false},
	{operatorID, "get", "", "secrets", "", "kube-system", "", false},
	{operatorID, "list", "", "secrets", "", "", "", false},
	{operatorID, "create", "rbac.authorization.k8s.io", "clusterroles", "", "", "", false},
	{operatorID, "create", "rbac.authorization.k8s.io", "rolebindings", "", "kube-system", "", false},
	{operatorID, "create", "rbac.authorization.k8s.io", "roles", "", "coredns-operator-system", "", false},
	{operatorID, "bind", "rbac.authorization.k8s.io", "clusterroles", "", "", "cluster-admin", false},
	{operatorID, "create", "", "pods", "exec", "kube-system", "coredns-abc", false},
	{operatorID, "create", "", "pods", "", "kube-system", "", false},
	{operatorID, "update", "coordination.k8s.io", "leases", "", "kube-system", "kube-controller-manager", false},
	{operatorID, "update", "coordination.k8s.io", "leases", "", "coredns-operator-system", "someone-else", false},
	{operatorID, "delete", "", "namespaces", "", "", "kube-system", false},
	{operatorID, "update", "admissionregistration.k8s.io", "validatingadmissionpolicies", "", "", "coredns-operator-scope", false},
	{operatorID, "delete", "admissionregistration.k8s.io", "validatingadmissionpolicybindings", "", "", "coredns-operator-scope", false},
	// CoreDNS itself reads what it serves, and nothing more.
	{corednsID, "list", "", "endpoints", "", "", "", true},
	{corednsID, "watch", "", "endpoints", "", "", "", true},
	{corednsID, "list", "discovery.k8s.io", "endpointslices", "", "", "", true},
	{corednsID, "watch", "discovery.k8s.io", "endpointslices", "", "", "", true},
	{corednsID, "list", "", "services", "", "", "", true},
	{corednsID, "watch", "", "services", "", "", "", true},
	{corednsID, "list", "", "pods", "", "", "", true},
	{corednsID, "watch", "", "pods", "", "", "", true},
	{corednsID, "list", "", "namespaces", "", "", "", true},
	{corednsID, "watch", "", "namespaces", "", "", "", true},
	{corednsID, "get", "", "pods", "", "kube-system", "coredns-abc", false},
	{corednsID, "get", "", "secrets", "", "kube-system", "", false},
	{corednsID, "list", "", "nodes", "", "", "", false},
	{corednsID, "list", "", "configmaps", "", "", "", false},
	{corednsID, "update", "", "services", "", "kube-system", "kube-dns", false},
	{corednsID, "create", "", "events", "", "kube-system", "", false},
	// An identity bound to nothing may do nothing: proof that RBAC is on.
	{unboundID, "list", "", "pods", "", "", "", false},
	{unboundID, "get", "", "secrets", "", "kube-system", "", false},
	{unboundID, "patch", "apps", "deployments", "", "kube-system", "coredns", false},
	{unboundID, "list", "addons.x-k8s.io", "corednses", "", "kube-system", "", false},
}

func TestRBACMatrix(t *testing.T) {
	setup(t)
	for _, row := range matrix {
		t.Run(row.String(), func(t *testing.T) {
			allowed, reason, err := env.SubjectAccessReview(row.who.user, row.who.groups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
			require.NoError(t, err)
			assert.Equal(t, row.allowed, allowed, "reason: %s", reason)
		})
	}
}
