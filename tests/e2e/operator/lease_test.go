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
	"testing"

	"github.com/stretchr/testify/assert"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/tests/e2e/framework"
)

// RBAC cannot limit a create by name: as each operator, a lease of another name in its own
// namespace (a well-known controller's) is refused by its scope policy, its own lease is admitted.
func TestEveryOperatorCreatesOnlyItsOwnLease(t *testing.T) {
	for _, op := range confinedOperators() {
		t.Run(op.name, func(t *testing.T) {
			op.deploy(t)
			d := op.descriptor()
			cs, _ := asOperatorOf(t, d)
			leases := cs.CoordinationV1().Leases(d.Namespace)
			create := func(name string) error {
				_, err := leases.Create(framework.Context(t), &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: d.Namespace}},
					metav1.CreateOptions{DryRun: dryRun})
				return err
			}
			for _, name := range []string{"kube-controller-manager", d.LeaseName + "-2", "x"} {
				assertPolicyDenied(t, create(name), d.PolicyName, "create of lease "+name)
			}
			assert.NoError(t, create(d.LeaseName), "its own lease")
		})
	}
}
