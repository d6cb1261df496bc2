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

package confine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/addons/metricsserver"
	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
)

// metricsServer is the second operator, metrics-server's, as its data package writes it: nothing
// below is specific to it beyond this value and what its renderer gives. It shows what adding an
// operator costs: one Descriptor, and the Roles, bindings, admission policy, package allow-list,
// CRD and docs table follow. Each call is a fresh value, for tests that change it.
func metricsServer() *confine.Descriptor { return metricsservermodel.Descriptor() }

// metricsServerSpec is the MetricsServer object of a default cluster.
var metricsServerSpec = metricsserver.Spec{Version: metricsserver.DefaultVersion, Image: metricsserver.DefaultImage, Insecure: true}

func TestSecondOperatorIsDataOnly(t *testing.T) {
	d := metricsServer()
	require.NoError(t, d.Validate())

	// Roles and bindings: one pair per namespace of the table, bound to the operator only.
	objects := d.RBACObjects()
	require.Len(t, objects, 4)
	role := objects[0].(*rbacv1.Role)
	assert.Equal(t, "kube-system", role.Namespace)
	assert.Equal(t, "metrics-server-operator", role.Name)
	assert.Len(t, role.Rules, 10)
	binding := objects[3].(*rbacv1.RoleBinding)
	assert.Equal(t, "metrics-server-operator-system", binding.Namespace)
	assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: "metrics-server-operator", Namespace: "metrics-server-operator-system"}}, binding.Subjects)

	// The admission policies: derived from the rendered objects, for the operator's requests only.
	scope, err := metricsServerScope()
	require.NoError(t, err)
	objects, err = confine.PolicyObjects(scope)
	require.NoError(t, err)
	require.Len(t, objects, 4)
	policy := objects[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	exact := objects[2].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	assert.Equal(t, "metrics-server-operator-scope", policy.Name)
	assert.Equal(t, "metrics-server-operator-scope-exact", exact.Name)
	for _, p := range []*admissionregistrationv1.ValidatingAdmissionPolicy{policy, exact} {
		assert.Equal(t, `request.userInfo.username == "system:serviceaccount:metrics-server-operator-system:metrics-server-operator"`, p.Spec.MatchConditions[0].Expression)
	}
	var messages []string
	for _, p := range []*admissionregistrationv1.ValidatingAdmissionPolicy{policy, exact} {
		for _, v := range p.Spec.Validations {
			messages = append(messages, v.Message)
		}
	}
	all := strings.Join(messages, "\n")
	assert.Contains(t, all, "the metrics-server operator may only create or change Deployment metrics-server")
	assert.Contains(t, all, "the metrics-server operator may write Deployment metrics-server only as kops renders it: spec exactly as rendered")
	assert.Contains(t, all, "the metrics-server operator may write Service metrics-server only as kops renders it: spec exactly as rendered")
	assert.Contains(t, all, "the metrics-server operator may only create or change ServiceAccount metrics-server")
	assert.NotContains(t, all, "coredns", "nothing of the first operator leaks into the second")
	assert.NotContains(t, all, "change ConfigMap", "a kind it does not manage gets no rule")
	assert.Equal(t, &admissionregistrationv1.ParamKind{APIVersion: "addons.x-k8s.io/v1alpha1", Kind: "MetricsServer"}, exact.Spec.ParamKind)
	var exactVariables []string
	for _, v := range exact.Spec.Variables {
		exactVariables = append(exactVariables, v.Name)
	}
	assert.Equal(t, []string{"deployment_spec", "managed_fields_kept"}, exactVariables, "the image flows into the Deployment only")
	assert.Contains(t, exact.Spec.Variables[0].Expression, `"image": dyn(params.spec.image)`)
	assert.Contains(t, all, "the metrics-server operator may write Service metrics-server only as kops renders it: spec exactly as rendered",
		"an object no instruction flows into is compared whole by the scope policy, which needs no params")
	var scopeVariables []string
	for _, v := range policy.Spec.Variables {
		scopeVariables = append(scopeVariables, v.Name)
	}
	assert.Contains(t, scopeVariables, "service_spec", "the Service is compared whole by the scope policy, its address left to the server")
	rules := policy.Spec.MatchConstraints.ResourceRules
	require.Len(t, rules, 4)
	assert.Equal(t, []string{"services", "serviceaccounts", "events"}, rules[1].Resources)
	assert.Equal(t, []string{"leases"}, rules[3].Resources)

	// The docs table and the package allow-list.
	md := d.RightsMarkdown()
	assert.Contains(t, md, "| `metrics-server-operator-system` | coordination.k8s.io | `leases` | `get`, `update` | `metrics-server-operator-leader` | Read and renew only its own leader-election lease. |")
	pkg, err := d.PackageObjects()
	require.NoError(t, err)
	require.Len(t, pkg, 4)
	assert.Equal(t, "metricsservers.addons.x-k8s.io", pkg[1].Name)
	assert.Equal(t, "metrics-server-operator", pkg[3].Name)

	// Its CRD, generated from its Go type.
	crd, err := d.CustomResourceDefinition()
	require.NoError(t, err)
	assert.Equal(t, "metricsservers.addons.x-k8s.io", crd.Name)
	assert.Equal(t, "MetricsServerList", crd.Spec.Names.ListKind)
	assert.Equal(t, "metricsserver", crd.Spec.Names.Singular)
	require.Len(t, crd.Spec.Versions, 1)
	schema := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	assert.Equal(t, []string{"version", "image", "insecure"}, schema.Properties["spec"].Required)
	require.NotNil(t, crd.Spec.Versions[0].Subresources, "a status field, a status subresource")
	assert.NotNil(t, crd.Spec.Versions[0].Subresources.Status)
}

// The descriptor is itself checked: a right no admission rule would confine, a kind without
// rules or a missing name is refused, every problem at once.
func TestDescriptorValidate(t *testing.T) {
	require.NoError(t, corednsmodel.Descriptor().Validate(), "the CoreDNS operator")
	cases := []struct {
		name   string
		change func(*confine.Descriptor)
		want   []string
	}{
		{"unconfined write", func(d *confine.Descriptor) {
			d.Rights = append(d.Rights, confine.Right{Namespace: "kube-system", Resources: []string{"secrets"}, Verbs: []string{"create"}, Why: "x"})
		}, []string{`Rights[14]: writes to "secrets" in group "", which no admission rule confines`}},
		{"delete", func(d *confine.Descriptor) { d.Rights[0].Verbs = append(d.Rights[0].Verbs, "delete") },
			[]string{`Rights[0].Verbs: "delete" is not allowed`}},
		{"wildcard", func(d *confine.Descriptor) { d.Rights[0].Resources = []string{"*"} }, []string{"Rights[0]: wildcards are not allowed"}},
		{"writes in its own namespace", func(d *confine.Descriptor) { d.Rights[12].Resources = []string{"configmaps"} },
			[]string{`Rights[12]: writes to "configmaps" in group "coordination.k8s.io" in its own namespace`}},
		{"other namespace", func(d *confine.Descriptor) { d.Rights[0].Namespace = "default" }, []string{`Rights[0].Namespace: "default" is neither`}},
		{"unexplained right", func(d *confine.Descriptor) { d.Rights[0].Why = "" }, []string{"Rights[0].Why: required"}},
		{"kind without rules", func(d *confine.Descriptor) {
			d.Managed = append(d.Managed, operator.Managed{Kind: "Secret", Name: "s"})
		}, []string{`Managed[3].Kind: "Secret" has no admission rules`}},
		{"two of a kind", func(d *confine.Descriptor) {
			d.Managed = append(d.Managed, operator.Managed{Kind: "Service", Name: "other"})
		}, []string{"Managed[3]: a second Service"}},
		{"several at once", func(d *confine.Descriptor) { d.PolicyName, d.LeaseName, d.MaxReplicas = "", "", 0 },
			[]string{"PolicyName: required", "LeaseName: required", "MaxReplicas: must be at least 1"}},
		{"watches its own namespace", func(d *confine.Descriptor) { d.WatchNamespace = d.Namespace },
			[]string{`WatchNamespace: "metrics-server-operator-system" is the operator's own namespace (Namespace)`}},
		{"no CRD type", func(d *confine.Descriptor) { d.CRD.Type = nil }, []string{"CRD.Type: required"}},
		{"a CRD rule for no field", func(d *confine.Descriptor) {
			d.CRDFields = crdschema.Fields{"spec.imag": {Pattern: "^x$"}}
		}, []string{"CRD: schema of operator.Resource[metricsserver.Spec]: spec.imag: names no field of operator.Resource[metricsserver.Spec]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := metricsServer()
			tc.change(d)
			err := d.Validate()
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// Every problem is told apart: "; " between them, not the brackets and spaces of a printed list.
func TestDescriptorValidateSeparatesProblems(t *testing.T) {
	d := metricsServer()
	d.PolicyName, d.LeaseName = "", ""
	err := d.Validate()
	require.Error(t, err)
	assert.Equal(t, `operator descriptor "operator.metrics-server.addons.x-k8s.io": LeaseName: required; PolicyName: required`, err.Error())
}

// metricsServerRendering is what metrics-server's renderer gives for a default cluster.
func metricsServerRendering(t *testing.T) []byte {
	t.Helper()
	rendered, err := metricsserver.Render(metricsServerSpec)
	require.NoError(t, err)
	return rendered
}

// metricsServerScope is the scope kops derives for the second operator: derived from what its
// renderer gives for a default cluster and for the marked spec.
func metricsServerScope() (*confine.Scope, error) {
	rendered, err := metricsserver.Render(metricsServerSpec)
	if err != nil {
		return nil, err
	}
	marked, err := metricsserver.Render(metricsservermodel.Marked(metricsServerSpec))
	if err != nil {
		return nil, err
	}
	return metricsServer().ScopeFromManifest(rendered, marked, metricsservermodel.Params(metricsServerSpec))
}
