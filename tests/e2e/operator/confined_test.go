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
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/kubemanifest"
	kopsoperator "k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/pkg/operator/operatortest"
	"k8s.io/kops/tests/e2e/framework"
)

// The attacker's sweep of "Confinement by construction", one table for every operator: each row is
// an operator as kops deploys it, its descriptor and what its renderer gives, and the same attacks
// run against every object it manages. A new operator is a new row.

// confinedOperator is one row: an operator under attack.
type confinedOperator struct {
	name       string
	descriptor func() *confine.Descriptor
	// deploy puts, once, the operator's confinement and managed objects on the server as kops
	// would, waits until its policies are enforced, and returns the managed objects as rendered,
	// by kind.
	deploy func(t *testing.T) map[string]map[string]interface{}
	// holes are the paths its policy leaves to others (a Deployment's replicas, within bounds).
	holes map[string]bool
}

// confinedOperators are the operators the sweep attacks.
func confinedOperators() []confinedOperator {
	return []confinedOperator{coreDNSRow(), nodeLocalDNSRow(), metricsServerRow()}
}

// Every object an operator manages, as the server holds it, attacked as that operator: the named
// workload attacks (operatortest.WorkloadAttacks) on a Deployment or DaemonSet, as an update and as
// a create (which would put it back after a deletion), and the generated sweep (every leaf
// changed, every field its OpenAPI schema has added). What the server itself takes from the admin
// must be refused to the operator by its policies, but for the holes.
func TestEveryOperatorEveryAttackDenied(t *testing.T) {
	schemas := openAPISchemas(t)
	for _, op := range confinedOperators() {
		t.Run(op.name, func(t *testing.T) {
			rendered := op.deploy(t)
			d := op.descriptor()
			admin, err := dynamic.NewForConfig(env.Config)
			require.NoError(t, err)
			_, operatorDyn := asOperatorOf(t, d)
			for _, m := range d.Managed {
				t.Run(m.Kind, func(t *testing.T) {
					gvr := mustResource(m.Kind)
					require.Contains(t, rendered, m.Kind)
					current := putBack(t, m.Kind, rendered[m.Kind])
					if m.Kind == "Deployment" || m.Kind == "DaemonSet" {
						for _, a := range operatortest.WorkloadAttacks(current) {
							t.Run(a.Path, func(t *testing.T) {
								byAdmin := dryRunUpdate(framework.Context(t), admin, "", gvr, a.Object)
								immutable := byAdmin.err != nil && apierrors.IsInvalid(byAdmin.err) && strings.Contains(byAdmin.err.Error(), "immutable")
								if !immutable {
									require.NoError(t, byAdmin.err, "the server itself takes this update from the admin")
									assert.False(t, reflect.DeepEqual(stripServer(byAdmin.obj), stripServer(current)), "the attack changes what is stored")
									byOperator := dryRunUpdate(framework.Context(t), operatorDyn, d.FieldManager(), gvr, a.Object)
									assertPolicyDenied(t, byOperator.err, d.ExactPolicyName(), "update")
								}
								// As a create, the server's immutability does not apply: the policy must refuse it.
								_, err := operatorDyn.Resource(gvr).Namespace(d.WatchNamespace).Create(framework.Context(t),
									&unstructured.Unstructured{Object: withoutServerFields(a.Object)}, metav1.CreateOptions{DryRun: dryRun})
								assertPolicyDenied(t, err, d.ExactPolicyName(), "create")
							})
						}
					}
					denied := sweep(t, mutationSweep{admin: admin, operator: operatorDyn, fieldManager: d.FieldManager(), gvr: gvr, schema: kindSchema(m.Kind),
						schemas: schemas, holes: op.holes, policy: d.PolicyName}, current)
					assert.Greater(t, denied, 0)
				})
			}
		})
	}
}

// Every operator may write exactly its rendering: each managed object, as the server holds it,
// updated as the operator's exact write (kopsoperator.ExactWrite, what a reconcile sends) is
// admitted, and so is the create of the rendering without kops's channels' metadata.
func TestEveryOperatorWritesItsRendering(t *testing.T) {
	for _, op := range confinedOperators() {
		t.Run(op.name, func(t *testing.T) {
			rendered := op.deploy(t)
			d := op.descriptor()
			_, operatorDyn := asOperatorOf(t, d)
			for _, m := range d.Managed {
				t.Run(m.Kind, func(t *testing.T) {
					ctx := framework.Context(t)
					gvr := mustResource(m.Kind)
					current := putBack(t, m.Kind, rendered[m.Kind])
					write := kopsoperator.ExactWrite(m.Kind, operatorWritesJSON(rendered[m.Kind]), current)
					_, err := operatorDyn.Resource(gvr).Namespace(d.WatchNamespace).Update(ctx, &unstructured.Unstructured{Object: write},
						metav1.UpdateOptions{DryRun: dryRun, FieldManager: d.FieldManager()})
					assert.NoError(t, err, "the operator's update to exactly its rendering")
					// A create, as after a deletion, is checked where the server would not refuse it
					// for existing: on another name its policy refuses, so a dry-run create of the
					// same name is what the policy sees first only once the object is gone.
					admin, err := dynamic.NewForConfig(env.Config)
					require.NoError(t, err)
					require.NoError(t, ignoreNotFound(admin.Resource(gvr).Namespace(d.WatchNamespace).Delete(ctx, m.Name, metav1.DeleteOptions{})))
					waitGone(t, func() error {
						_, err := admin.Resource(gvr).Namespace(d.WatchNamespace).Get(ctx, m.Name, metav1.GetOptions{})
						return err
					})
					_, err = operatorDyn.Resource(gvr).Namespace(d.WatchNamespace).Create(ctx, &unstructured.Unstructured{Object: operatorWritesJSON(rendered[m.Kind])},
						metav1.CreateOptions{FieldManager: d.FieldManager()})
					assert.NoError(t, err, "the operator's create of exactly its rendering")
					putBack(t, m.Kind, rendered[m.Kind])
				})
			}
		})
	}
}

// putBack makes, as the admin, the object the server holds exactly the rendering (what the
// operator would write), creating it when missing, and returns it as the server holds it.
func putBack(t *testing.T, kind string, rendering map[string]interface{}) map[string]interface{} {
	t.Helper()
	ctx := framework.Context(t)
	admin, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	u := &unstructured.Unstructured{Object: rendering}
	client := admin.Resource(mustResource(kind)).Namespace(u.GetNamespace())
	current, err := client.Get(ctx, u.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		current, err = client.Create(ctx, u.DeepCopy(), metav1.CreateOptions{})
		require.NoError(t, err)
		return current.Object
	}
	require.NoError(t, err)
	current, err = client.Update(ctx, &unstructured.Unstructured{Object: kopsoperator.ExactWrite(kind, rendering, current.Object)}, metav1.UpdateOptions{})
	require.NoError(t, err)
	return current.Object
}

// operatorWritesJSON is a rendered object as the operator writes it (operatorWrites).
func operatorWritesJSON(obj map[string]interface{}) map[string]interface{} {
	return operatorWrites(&unstructured.Unstructured{Object: obj}).Object
}

// asOperatorOf is a clientset whose requests run as d's operator's service account.
func asOperatorOf(t *testing.T, d *confine.Descriptor) (kubernetes.Interface, dynamic.Interface) {
	cfg := env.ServiceAccountConfig(d.Namespace, d.ServiceAccount)
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	dyn, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	return cs, dyn
}

// operatorSetup is everything kops applies for an operator that is not CoreDNS's (which the
// package's kops cluster deploys): its descriptor, its instructions, the managed objects as its
// renderer gives them for the instructions, the scope its policies are generated from, and the
// cluster-scoped prerequisites kops writes for the addon.
type operatorSetup struct {
	descriptor    *confine.Descriptor
	instructions  map[string]interface{}
	manifest      []byte
	scope         func() (*confine.Scope, error)
	prerequisites []byte
}

// deployed remembers, by operator, what deployOperator applied: each is applied once for the package.
var deployed = map[string]map[string]map[string]interface{}{}

// deployOperator applies, once, as the admin, everything kops would for an operator: its namespace,
// CRD and instructions, its prerequisites, the objects it manages as rendered, its Roles and
// bindings, and its admission policies, and waits until the server enforces them. It returns the
// managed objects as rendered, by kind.
func deployOperator(t *testing.T, s operatorSetup) map[string]map[string]interface{} {
	t.Helper()
	d := s.descriptor
	if out, ok := deployed[d.Subject]; ok {
		require.NotNil(t, out, "the %s operator's setup failed in an earlier test", d.Subject)
		return out
	}
	deployed[d.Subject] = nil
	ctx := framework.Context(t)
	create := func(obj client.Object) {
		err := env.Client.Create(ctx, obj)
		if !apierrors.IsAlreadyExists(err) {
			require.NoError(t, err, "%T %s", obj, obj.GetName())
		}
	}
	decode := func(manifest []byte) []*unstructured.Unstructured {
		objs, err := kubemanifest.DecodeStrict(manifest)
		require.NoError(t, err)
		out := make([]*unstructured.Unstructured, 0, len(objs))
		for _, o := range objs {
			u := &unstructured.Unstructured{}
			require.NoError(t, yaml.Unmarshal(o.Raw, &u.Object))
			out = append(out, u)
		}
		return out
	}
	create(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: d.Namespace}})
	crd, err := d.CustomResourceDefinition()
	require.NoError(t, err)
	create(crd)
	waitEstablished(t, crd.Name)
	// The instructions before the exact policy's binding: without its params, the binding
	// refuses every write it matches, the admin's too.
	// Through the dynamic client: the client's REST mapper may not know the new kind yet.
	admin, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	instructions := &unstructured.Unstructured{Object: s.instructions}
	_, err = admin.Resource(schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource}).
		Namespace(instructions.GetNamespace()).Create(ctx, instructions, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err, "the instructions")
	}
	for _, u := range decode(s.prerequisites) {
		create(u)
	}
	rendered := map[string]map[string]interface{}{}
	for _, u := range decode(s.manifest) {
		rendered[u.GetKind()] = runtime.DeepCopyJSON(u.Object)
		create(u)
	}
	for _, o := range d.RBACObjects() {
		create(o.(client.Object))
	}
	scope, err := s.scope()
	require.NoError(t, err)
	policies, err := confine.PolicyObjects(scope)
	require.NoError(t, err)
	for _, o := range policies {
		create(o.(client.Object))
	}
	waitPoliciesEnforced(t, policies)
	deployed[d.Subject] = rendered
	return rendered
}

// assertPolicyDenied checks that the named policy refused a request.
func assertPolicyDenied(t *testing.T, err error, policy, what string) {
	t.Helper()
	require.Error(t, err, "%s was admitted", what)
	assert.True(t, apierrors.IsInvalid(err) || apierrors.IsForbidden(err), "%s: %v", what, err)
	d, ok := channelsapi.AsPolicyDenial(err)
	assert.True(t, ok && d.Policy == policy, "%s: denied by the policy, not by something else: %v", what, err)
}
