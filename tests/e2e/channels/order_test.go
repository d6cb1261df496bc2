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

package channels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// confinedAddon is an admission policy and its binding, the Role and RoleBinding whose rights the
// policy confines, and a Deployment using them, all in the order of a manifest.
func confinedAddon(ns, addon string) string {
	labels := "\n  labels:\n    addon.kops.k8s.io/name: " + addon + "\n"
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: " + ns + labels +
		"spec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [\"\"]\n      apiVersions: [v1]\n" +
		"      operations: [CREATE]\n      resources: [configmaps]\n  validations:\n  - expression: \"true\"\n" +
		"---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: " + ns + labels +
		"spec:\n  policyName: " + ns + "\n  validationActions: [Deny]\n  matchResources:\n    namespaceSelector:\n" +
		"      matchLabels:\n        kubernetes.io/metadata.name: " + ns + "\n" +
		"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: confined\n  namespace: " + ns + labels +
		"rules:\n- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [create]\n" +
		"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: confined\n  namespace: " + ns + labels +
		"roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: confined\n" +
		"subjects:\n- kind: ServiceAccount\n  name: default\n  namespace: " + ns + "\n" +
		"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: confined\n  namespace: " + ns + labels +
		"spec:\n  selector:\n    matchLabels: {app: confined}\n  template:\n    metadata:\n      labels: {app: confined}\n" +
		"    spec:\n      containers:\n      - name: c\n        image: registry.k8s.io/pause:3.10\n"
}

// Prune deletes the rights and the workload before the admission policy and binding confining
// them, whatever the order of the prune spec's kinds. Today's code prunes kind after kind in the
// spec's order, so a spec naming the policy first deleted it while its Role was still there.
func TestPruneDeletesThePolicyLast(t *testing.T) {
	const ns, addon = "e2e-prune-order", "prune-order"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	prune := map[string]*api.PruneSpec{addon: {Kinds: []api.PruneKindSpec{
		{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"},
		{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"},
		{Group: "rbac.authorization.k8s.io", Kind: "Role"},
		{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"},
		{Group: "apps", Kind: "Deployment"},
	}}}
	keep := configMap(ns, "keep", addon)
	location := testChannel(t, mem, "prune-order", ns, [][2]string{{addon, keep + "---\n" + confinedAddon(ns, addon)}}, prune)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	deletes := env.DeleteLog(t)
	location = testChannel(t, mem, "prune-order", ns, [][2]string{{addon, keep}}, prune)
	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()[addon])

	var served []string
	for _, d := range deletes.Deletions(t) {
		if d.Code >= 200 && d.Code < 300 {
			served = append(served, d.Resource+" "+d.Name)
		}
	}
	assert.Equal(t, []string{
		"deployments confined", "rolebindings confined", "roles confined",
		"validatingadmissionpolicybindings " + ns, "validatingadmissionpolicies " + ns,
	}, served, "workloads, then rights, then the binding and the policy")
}
