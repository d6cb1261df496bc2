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
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/pkg/operator/operatortest"
)

// Each binding's enforcement probe is a request its own policy matches: a create of a kind the
// policy does not see is admitted, and channels would wait for an enforcement it can never
// observe. An operator that manages no ConfigMap (metrics-server) is probed with another kind.
func TestEnforcementProbesAreMatchedByTheirPolicies(t *testing.T) {
	for name, scope := range map[string]func() (*confine.Scope, error){
		"Deployment, Service, ServiceAccount":  metricsServerScope,
		"DaemonSet, ConfigMap, ServiceAccount": operatortest.NodeLocalDNSScope,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := scope()
			require.NoError(t, err)
			objects, err := confine.PolicyObjects(s)
			require.NoError(t, err)
			policies := map[string]*admissionregistrationv1.ValidatingAdmissionPolicy{}
			var bindings []*admissionregistrationv1.ValidatingAdmissionPolicyBinding
			for _, o := range objects {
				switch o := o.(type) {
				case *admissionregistrationv1.ValidatingAdmissionPolicy:
					policies[o.Name] = o
				case *admissionregistrationv1.ValidatingAdmissionPolicyBinding:
					bindings = append(bindings, o)
				}
			}
			require.Len(t, bindings, 2)
			for _, b := range bindings {
				probe, err := channelsapi.ParseEnforcementProbe(b.Annotations[channelsapi.EnforcementProbeAnnotation])
				require.NoError(t, err)
				u := &unstructured.Unstructured{Object: probe.Object}
				gvr, ok := operator.ManagedResource(u.GetKind())
				require.True(t, ok, "%s: the probe is a managed kind: %s", b.Name, u.GetKind())
				assert.Equal(t, gvr.GroupVersion().String(), u.GetAPIVersion(), b.Name)
				policy := policies[b.Spec.PolicyName]
				require.NotNil(t, policy, b.Name)
				matched := false
				for _, r := range policy.Spec.MatchConstraints.ResourceRules {
					named := len(r.ResourceNames) == 0 || slices.Contains(r.ResourceNames, u.GetName())
					if named && slices.Contains(r.APIGroups, gvr.Group) && slices.Contains(r.Resources, gvr.Resource) &&
						slices.Contains(operationsOf(r.Operations), string(admissionregistrationv1.Create)) {
						matched = true
					}
				}
				assert.True(t, matched, "%s: the probe %s %s is not a request the policy %s matches", b.Name, u.GetKind(), u.GetName(), policy.Name)
			}
		})
	}
}

func operationsOf(ops []admissionregistrationv1.OperationType) []string {
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = string(o)
	}
	return out
}
