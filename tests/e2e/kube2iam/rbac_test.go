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

package kube2iam

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/tests/e2e/framework"
)

// access is one row: may kube2iam do verb on group/resource[/subresource] in namespace (all or
// cluster-scoped when empty) named name (any when empty)?
type access struct {
	verb, group, resource, subresource, namespace, name string
	allowed                                             bool
}

var matrix = []access{
	{"get", "", "pods", "", "default", "app", true},
	{"list", "", "pods", "", "", "", true},
	{"watch", "", "pods", "", "", "", true},
	{"list", "", "pods", "", "kube-system", "", true},
	{"get", "", "namespaces", "", "", "default", true},
	{"list", "", "namespaces", "", "", "", true},
	{"watch", "", "namespaces", "", "", "", true},
	// Nothing else: no writes to what it reads, no subresources, no other kinds.
	{"create", "", "pods", "", "default", "", false},
	{"update", "", "pods", "", "default", "app", false},
	{"patch", "", "pods", "", "default", "app", false},
	{"delete", "", "pods", "", "default", "app", false},
	{"create", "", "pods", "exec", "default", "app", false},
	{"get", "", "pods", "log", "default", "app", false},
	{"create", "", "pods", "eviction", "default", "app", false},
	{"patch", "", "pods", "status", "default", "app", false},
	{"patch", "", "namespaces", "", "", "default", false},
	{"delete", "", "namespaces", "", "", "default", false},
	{"get", "", "secrets", "", "kube-system", "", false},
	{"list", "", "secrets", "", "", "", false},
	{"list", "", "configmaps", "", "", "", false},
	{"get", "", "configmaps", "", "kube-system", "coredns", false},
	{"create", "", "serviceaccounts", "token", "kube-system", "kube2iam", false},
	{"list", "", "nodes", "", "", "", false},
	{"list", "", "services", "", "", "", false},
	{"create", "", "events", "", "kube-system", "", false},
	{"patch", "apps", "daemonsets", "", "kube-system", "kube2iam", false},
	{"escalate", "rbac.authorization.k8s.io", "clusterroles", "", "", "kube2iam", false},
	{"bind", "rbac.authorization.k8s.io", "clusterroles", "", "", "cluster-admin", false},
}

func (a access) String() string {
	return fmt.Sprintf("%s %s/%s/%s %s/%s", a.verb, a.group, a.resource, a.subresource, a.namespace, a.name)
}

// checkMatrix asks the server about every row; with deployed false every row is denied.
func checkMatrix(t *testing.T, deployed bool) {
	user, groups := framework.ServiceAccountUser(kube2iam.Namespace, kube2iam.ServiceAccount)
	for _, row := range matrix {
		allowed, reason, err := env.SubjectAccessReview(user, groups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
		require.NoError(t, err)
		assert.Equal(t, row.allowed && deployed, allowed, "%s (%s)", row, reason)
	}
}
