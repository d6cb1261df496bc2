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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"

	kopsoperator "k8s.io/kops/pkg/operator"
	"k8s.io/kops/tests/e2e/framework"
)

// What the server writes into an object, attacked as each operator on the real server: the
// fields it allocates, the entries of other field managers, and the annotations of controllers.

// deniedByEither checks that one of d's two policies refused a request.
func deniedByEither(t *testing.T, err error, policy, what string) {
	t.Helper()
	require.Error(t, err, "%s was admitted", what)
	assert.True(t, deniedByPolicyOf(err, policy), "%s: denied by the operator's policy, not by something else: %v", what, err)
}

// A Service whose rendering leaves its address to the server, gone (as on every fresh cluster):
// the operator may create it only without asking for an address, so that it can neither make it
// headless nor take another Service's address (kube-dns's, before CoreDNS's operator puts it
// back). Real creates: a dry run would not hold the address.
func TestEveryOperatorLeavesAllocatedFieldsToTheServer(t *testing.T) {
	tried := 0
	for _, op := range confinedOperators() {
		rendered := op.deploy(t)
		d := op.descriptor()
		_, operatorDyn := asOperatorOf(t, d)
		admin, err := dynamic.NewForConfig(env.Config)
		require.NoError(t, err)
		for _, m := range d.Managed {
			kind, _ := kopsoperator.KindOf(m.Kind)
			spec, _ := rendered[m.Kind]["spec"].(map[string]interface{})
			if len(kind.Allocated["spec"]) == 0 || spec["clusterIP"] != nil {
				continue
			}
			tried++
			t.Run(op.name+"/"+m.Kind, func(t *testing.T) {
				ctx := framework.Context(t)
				client := operatorDyn.Resource(mustResource(m.Kind)).Namespace(d.WatchNamespace)
				current := putBack(t, m.Kind, rendered[m.Kind])
				defer putBack(t, m.Kind, rendered[m.Kind])
				require.NoError(t, ignoreNotFound(admin.Resource(mustResource(m.Kind)).Namespace(d.WatchNamespace).Delete(ctx, m.Name, metav1.DeleteOptions{})))
				waitGone(t, func() error {
					_, err := admin.Resource(mustResource(m.Kind)).Namespace(d.WatchNamespace).Get(ctx, m.Name, metav1.GetOptions{})
					return err
				})
				// An address the server would give: the one it gave before, free again.
				address, _, _ := unstructured.NestedString(current, "spec", "clusterIP")
				require.NotEmpty(t, address)
				for name, ip := range map[string]string{"headless": "None", "an address of its choosing": address} {
					asked := operatorWritesJSON(rendered[m.Kind])
					require.NoError(t, unstructured.SetNestedField(asked, ip, "spec", "clusterIP"))
					_, err := client.Create(ctx, &unstructured.Unstructured{Object: asked}, metav1.CreateOptions{FieldManager: d.FieldManager()})
					deniedByEither(t, err, d.PolicyName, name)
				}
				_, err := client.Create(ctx, &unstructured.Unstructured{Object: operatorWritesJSON(rendered[m.Kind])}, metav1.CreateOptions{FieldManager: d.FieldManager()})
				assert.NoError(t, err, "the create of exactly the rendering, its address left to the server")
			})
		}
	}
	require.Positive(t, tried, "some operator manages a Service whose address the server allocates")
}

// entries are an object's managedFields as JSON.
func entries(obj map[string]interface{}) []interface{} {
	l, _, _ := unstructured.NestedSlice(obj, "metadata", "managedFields")
	return l
}

// otherApplier is a field manager that server-side applied the object's labels, as channels does.
const otherApplier = "e2e-applier"

// The entries of other field managers in managedFields (channels decides by its own Apply entry
// whether it made an object): sent by the operator in an update, none may be dropped, added,
// or grown. An update that leaves them to the server is admitted, and so is one that
// empties another's Update entry by putting back what it changed.
func TestEveryOperatorKeepsOtherManagersEntries(t *testing.T) {
	for _, op := range confinedOperators() {
		rendered := op.deploy(t)
		d := op.descriptor()
		_, operatorDyn := asOperatorOf(t, d)
		admin, err := dynamic.NewForConfig(env.Config)
		require.NoError(t, err)
		for _, m := range d.Managed {
			t.Run(op.name+"/"+m.Kind, func(t *testing.T) {
				ctx := framework.Context(t)
				gvr := mustResource(m.Kind)
				putBack(t, m.Kind, rendered[m.Kind])
				labels, _, _ := unstructured.NestedStringMap(rendered[m.Kind], "metadata", "labels")
				require.NotEmpty(t, labels)
				applied := map[string]interface{}{"apiVersion": rendered[m.Kind]["apiVersion"], "kind": m.Kind,
					"metadata": map[string]interface{}{"name": m.Name, "namespace": d.WatchNamespace, "labels": rendered[m.Kind]["metadata"].(map[string]interface{})["labels"]}}
				current, err := admin.Resource(gvr).Namespace(d.WatchNamespace).Apply(ctx, m.Name, &unstructured.Unstructured{Object: applied},
					metav1.ApplyOptions{FieldManager: otherApplier, Force: true})
				require.NoError(t, err)
				write := func(change func(l []interface{}) []interface{}) error {
					obj := kopsoperator.ExactWrite(m.Kind, operatorWritesJSON(rendered[m.Kind]), current.Object)
					l := change(runtime.DeepCopyJSONValue(entries(obj)).([]interface{}))
					require.NoError(t, unstructured.SetNestedSlice(obj, l, "metadata", "managedFields"))
					_, err := operatorDyn.Resource(gvr).Namespace(d.WatchNamespace).Update(ctx, &unstructured.Unstructured{Object: obj},
						metav1.UpdateOptions{FieldManager: d.FieldManager(), DryRun: dryRun})
					return err
				}
				applier := func(l []interface{}) map[string]interface{} {
					for _, e := range l {
						if e.(map[string]interface{})["manager"] == otherApplier {
							return e.(map[string]interface{})
						}
					}
					require.Fail(t, "no entry of "+otherApplier)
					return nil
				}
				require.NoError(t, write(func(l []interface{}) []interface{} { return l }), "the operator's exact write, entries left as they are")
				attacks := map[string]func(l []interface{}) []interface{}{
					"another's Apply entry dropped": func(l []interface{}) []interface{} {
						var out []interface{}
						for _, e := range l {
							if e.(map[string]interface{})["manager"] != otherApplier {
								out = append(out, e)
							}
						}
						return out
					},
					"managedFields cleared": func([]interface{}) []interface{} { return []interface{}{} },
					"another's entry grown": func(l []interface{}) []interface{} {
						e := applier(l)
						require.NoError(t, unstructured.SetNestedField(e, map[string]interface{}{}, "fieldsV1", "f:metadata", "f:labels", "."))
						return l
					},
					"an entry of a manager that never wrote": func(l []interface{}) []interface{} {
						forged := runtime.DeepCopyJSONValue(applier(l)).(map[string]interface{})
						forged["manager"] = "kube-controller-manager"
						forged["operation"] = "Update"
						return append(l, forged)
					},
				}
				for name, attack := range attacks {
					deniedByEither(t, write(attack), d.PolicyName, name)
				}

				// An edit by another client (an Update entry), put back by the operator's exact
				// write: the server empties that entry and drops it, and the policy admits it.
				edited := runtime.DeepCopyJSON(current.Object)
				require.NoError(t, unstructured.SetNestedField(edited, "yes", "metadata", "labels", "e2e-edited"))
				current, err = admin.Resource(gvr).Namespace(d.WatchNamespace).Update(ctx, &unstructured.Unstructured{Object: edited},
					metav1.UpdateOptions{FieldManager: "e2e-editor"})
				require.NoError(t, err)
				obj := kopsoperator.ExactWrite(m.Kind, operatorWritesJSON(rendered[m.Kind]), current.Object)
				got, err := operatorDyn.Resource(gvr).Namespace(d.WatchNamespace).Update(ctx, &unstructured.Unstructured{Object: obj},
					metav1.UpdateOptions{FieldManager: d.FieldManager()})
				require.NoError(t, err, "the operator puts back another client's edit")
				var managers []string
				for _, e := range entries(got.Object) {
					managers = append(managers, e.(map[string]interface{})["manager"].(string))
				}
				assert.NotContains(t, managers, "e2e-editor", "the editor's emptied entry is gone")
				assert.Contains(t, managers, otherApplier, "the applier's entry is kept")
			})
		}
	}
}

// Annotations controllers set: the Deployment's revision is the deployment controller's (kept
// as it is, never set on create), a DaemonSet's template generation the server's (its own value
// on create). Tried as each operator with a value of its own.
func TestEveryOperatorLeavesControllerAnnotations(t *testing.T) {
	tried := 0
	for _, op := range confinedOperators() {
		rendered := op.deploy(t)
		d := op.descriptor()
		_, operatorDyn := asOperatorOf(t, d)
		for _, m := range d.Managed {
			kind, _ := kopsoperator.KindOf(m.Kind)
			keys := append([]string(nil), kind.ControllerAnnotations...)
			for k := range kind.ServerAnnotations {
				keys = append(keys, k)
			}
			for _, key := range keys {
				tried++
				t.Run(op.name+"/"+m.Kind+"/"+key, func(t *testing.T) {
					ctx := framework.Context(t)
					client := operatorDyn.Resource(mustResource(m.Kind)).Namespace(d.WatchNamespace)
					current := putBack(t, m.Kind, rendered[m.Kind])
					large := strings.Repeat("9", 4096)
					if _, server := kind.ServerAnnotations[key]; !server {
						obj := kopsoperator.ExactWrite(m.Kind, operatorWritesJSON(rendered[m.Kind]), current)
						require.NoError(t, unstructured.SetNestedField(obj, large, "metadata", "annotations", key))
						_, err := client.Update(ctx, &unstructured.Unstructured{Object: obj}, metav1.UpdateOptions{FieldManager: d.FieldManager(), DryRun: dryRun})
						deniedByEither(t, err, d.PolicyName, "update with a value of its own")
					}
					fresh := operatorWritesJSON(rendered[m.Kind])
					require.NoError(t, unstructured.SetNestedField(fresh, "7", "metadata", "annotations", key))
					fresh["metadata"].(map[string]interface{})["name"] = m.Name
					_, err := client.Create(ctx, &unstructured.Unstructured{Object: fresh}, metav1.CreateOptions{FieldManager: d.FieldManager(), DryRun: dryRun})
					if apierrors.IsAlreadyExists(err) {
						// The create reaches admission before the store: a refusal by the policy
						// comes first, an admission says the object exists.
						require.Fail(t, "the create with a value of its own was admitted", "%v", err)
					}
					deniedByEither(t, err, d.PolicyName, "create with a value of its own")
				})
			}
		}
	}
	require.Positive(t, tried, "some operator manages a kind with controllers' annotations")
}
