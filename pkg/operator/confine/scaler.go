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

package confine

import (
	"fmt"
	"maps"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

// A scaler is a workload kops runs beside an operator that sets the replica count of one of the
// operator's managed Deployments through its scale subresource (CoreDNS's cluster-proportional
// autoscaler). The operator's exact policy leaves that count free within ReplicaBounds; RBAC lets
// the scaler write the scale of that one Deployment, but at any value, and a count past the bound
// would lock the operator out of every write to its Deployment. So the scaler is confined like an
// operator: a policy for its identity alone bounds what it writes by the same ReplicaBounds.

// Scaler names a scaler of one of an operator's managed Deployments.
type Scaler struct {
	// Namespace and ServiceAccount are the scaler's identity.
	Namespace      string
	ServiceAccount string
	// Deployment is the managed Deployment it scales, in the operator's WatchNamespace.
	Deployment string
	// PolicyName names the admission policy and its binding.
	PolicyName string
	// ProbeName names a Deployment in WatchNamespace that the policy must deny the scaler: the
	// object of the binding's enforcement probe.
	ProbeName string
	// Labels are the labels of the policy and the binding: those of the addon kops applies them in.
	Labels map[string]string
}

// Username is the scaler's user name as the API server authenticates its ServiceAccount.
func (s *Scaler) Username() string {
	return "system:serviceaccount:" + s.Namespace + ":" + s.ServiceAccount
}

func (d *Descriptor) validateScaler(s *Scaler) error {
	var problems []string
	for field, v := range map[string]string{"Namespace": s.Namespace, "ServiceAccount": s.ServiceAccount,
		"Deployment": s.Deployment, "PolicyName": s.PolicyName, "ProbeName": s.ProbeName} {
		if v == "" {
			problems = append(problems, field+": required")
		}
	}
	managed := false
	for _, m := range d.Managed {
		managed = managed || (m.Kind == "Deployment" && m.Name == s.Deployment)
	}
	if !managed {
		problems = append(problems, fmt.Sprintf("Deployment: %q is not a Deployment the %s operator manages, so no replica bound of its applies", s.Deployment, d.Subject))
	}
	if s.ProbeName == s.Deployment {
		problems = append(problems, "ProbeName: must differ from Deployment, which the policy admits")
	}
	if d.MaxReplicas < minReplicas {
		problems = append(problems, fmt.Sprintf("the operator's MaxReplicas %d is below %d", d.MaxReplicas, minReplicas))
	}
	if len(problems) > 0 {
		sortStrings(problems)
		return fmt.Errorf("scaler %q of the %s operator: %s", s.ServiceAccount, d.Subject, strings.Join(problems, "; "))
	}
	return nil
}

// ScalerPolicyObjects are the policy confining scaler s and its binding. The policy sees the
// scaler's updates of a Deployment's scale and its creates and updates of Deployments (it may make
// none: RBAC refuses them, but matching them gives the binding an enforcement probe that reaches
// the policy, a Deployment create, and bounds any right it may be given later). It admits a write
// only of s.Deployment in WatchNamespace, with a replica count within d's ReplicaBounds: the
// bound the operator's exact policy holds that Deployment to, from the same expression.
func (d *Descriptor) ScalerPolicyObjects(s *Scaler) ([]runtime.Object, error) {
	if err := d.validateScaler(s); err != nil {
		return nil, err
	}
	who := "the " + d.Subject + " scaler " + s.ServiceAccount
	target := "Deployment " + d.WatchNamespace + "/" + s.Deployment
	scale, scaleMessage := d.replicasWithin(0)
	deployment, deploymentMessage := d.replicasWithin(1)
	validations := []admissionregistrationv1.Validation{
		{Expression: allOf(`request.namespace == `+celString(d.WatchNamespace), `object.metadata.name == `+celString(s.Deployment)),
			Message: who + " may write " + target + " alone"},
		{Expression: `request.subResource != "scale" || (` + scale + `)`, Message: who + ": " + target + " " + scaleMessage},
		{Expression: `request.subResource != "" || (` + deployment + `)`, Message: who + ": " + target + " " + deploymentMessage},
	}
	update := []admissionregistrationv1.OperationType{admissionregistrationv1.Update}
	scaleRule := namedRule("apps", "v1", nil, "deployments/scale")
	scaleRule.Operations = update
	match := &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{
		namedRule("apps", "v1", nil, "deployments"), scaleRule}}

	probe := map[string]interface{}{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]interface{}{"name": s.ProbeName, "namespace": d.WatchNamespace,
			"labels": map[string]interface{}{channelsapi.LabelEnforcementProbe: "true"}},
	}
	for k, v := range kindOf("Deployment").ProbeBody {
		probe[k] = runtime.DeepCopyJSONValue(v)
	}
	binding, err := userBinding(s.PolicyName, maps.Clone(s.Labels), s.Username(), nil, probe)
	if err != nil {
		return nil, err
	}
	return []runtime.Object{
		userPolicy(s.PolicyName, maps.Clone(s.Labels), "scaler-requests-only", s.Username(), match, nil, nil, validations),
		binding,
	}, nil
}

// ScalerPolicyManifest is ScalerPolicyObjects as YAML documents.
func (d *Descriptor) ScalerPolicyManifest(s *Scaler) ([]byte, error) {
	objects, err := d.ScalerPolicyObjects(s)
	if err != nil {
		return nil, err
	}
	return manifest(objects)
}
