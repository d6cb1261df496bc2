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

package addons

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator"
)

// placed is one object of a channel and the addon whose manifest holds it.
type placed struct {
	addon string
	obj   *unstructured.Unstructured
}

// channelObjects are the objects the CoreDNS builders put in the channel's addons (not its takeOver,
// which is applied only over another tool's record) for cluster spec in mode, by Kind/namespace/name.
func channelObjects(t *testing.T, spec kops.ClusterSpec, mode string) map[string]placed {
	t.Helper()
	ctx := modeContext(t, spec, mode)
	out := map[string]placed{}
	for _, b := range []Builder{BuiltInBuilder{corednsmodel.Operator()}, OperatorBuilder{corednsmodel.Operator()}} {
		addons, err := b.Addons(ctx)
		require.NoError(t, err)
		for _, a := range addons {
			if a.TakeOver {
				continue
			}
			docs, err := kubemanifest.Split(a.Manifest)
			require.NoError(t, err)
			for _, doc := range docs {
				u := &unstructured.Unstructured{}
				require.NoError(t, yaml.Unmarshal(doc, &u.Object))
				key := u.GetKind() + "/" + u.GetName()
				if ns := u.GetNamespace(); ns != "" {
					key = u.GetKind() + "/" + ns + "/" + u.GetName()
				}
				_, twice := out[key]
				require.False(t, twice, "%s is in two addons of the channel", key)
				out[key] = placed{addon: a.Spec.Name, obj: u}
			}
		}
	}
	return out
}

// scalingKeys are the autoscaler's objects and CoreDNS's PodDisruptionBudget.
var scalingKeys = []string{
	"PodDisruptionBudget/kube-system/kube-dns",
	"ServiceAccount/kube-system/coredns-autoscaler",
	"ClusterRole/coredns-autoscaler",
	"ClusterRoleBinding/coredns-autoscaler",
	"Role/kube-system/coredns-autoscaler",
	"RoleBinding/kube-system/coredns-autoscaler",
	"ConfigMap/kube-system/coredns-autoscaler",
	"Deployment/kube-system/coredns-autoscaler",
}

// autoscalerPolicyKeys are the admission policy and binding that bound the autoscaler's writes
// beside the operator. They are in the channel in ServerSide mode alone: there the autoscaler's
// count must stay within what the operator's policy admits, or the operator is locked out of
// Deployment coredns. Built in (and client-side), the autoscaler is kops's, as kops runs it: its
// parameters set no most, and nothing locks anyone out, so no policy confines it.
var autoscalerPolicyKeys = []string{
	"ValidatingAdmissionPolicy/coredns-autoscaler-replicas",
	"ValidatingAdmissionPolicyBinding/coredns-autoscaler-replicas",
}

// modes are the three ways CoreDNS is deployed: built in (flags off), client-side, server-side.
var modes = []string{"", kops.OperatorModeClientSide, kops.OperatorModeServerSide}

// linearParams decodes the autoscaler's parameters from its ConfigMap.
func linearParams(t *testing.T, cm *unstructured.Unstructured) map[string]interface{} {
	t.Helper()
	raw, _, err := unstructured.NestedString(cm.Object, "data", "linear")
	require.NoError(t, err)
	var params map[string]interface{}
	require.NoError(t, json.Unmarshal([]byte(raw), &params))
	return params
}

// TestEveryModeScalesCoreDNS: in every mode the channel holds the autoscaler and the
// PodDisruptionBudget, once, with the cluster's remapped autoscaler image, and they are the same
// objects (but for the addon that holds them, and the bound the operator's policy sets on the
// replica count), so that a switch of mode updates them in place. With the operator they are kops's
// own addon: the operator may write nothing but the objects it reconciles; that addon holds the
// same objects plus the autoscaler's admission policy and binding (autoscalerPolicyKeys), which
// exist in no other mode: only beside the operator is there a bound to hold the autoscaler to.
func TestEveryModeScalesCoreDNS(t *testing.T) {
	specs := map[string]kops.ClusterSpec{
		"defaults":        {},
		"registry mirror": {Assets: &kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"}},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			ctx := modeContext(t, spec, "")
			facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
			require.NoError(t, err)
			require.NotEmpty(t, facts.AutoscalerImage)
			var builtIn map[string]placed
			for _, mode := range modes {
				objs := channelObjects(t, spec, mode)
				owner, min, max := coredns.AddonName, float64(coredns.BuiltInMinReplicas), interface{}(nil)
				if mode == kops.OperatorModeServerSide {
					lo, hi := corednsmodel.Descriptor().ReplicaBounds()
					owner, min, max = coredns.ScalingAddonName, float64(lo), float64(hi)
				}
				for _, key := range autoscalerPolicyKeys {
					p, ok := objs[key]
					if mode != kops.OperatorModeServerSide {
						assert.False(t, ok, "mode %q: %s only beside the operator", mode, key)
						continue
					}
					if assert.True(t, ok, "mode %q: %s is in the channel", mode, key) {
						assert.Equal(t, coredns.ScalingAddonName, p.addon, "mode %q: %s is in the autoscaler's addon", mode, key)
					}
				}
				var inScaling []string
				for key, p := range objs {
					if p.addon == coredns.ScalingAddonName {
						inScaling = append(inScaling, key)
					}
				}
				if mode == kops.OperatorModeServerSide {
					assert.ElementsMatch(t, append(append([]string(nil), scalingKeys...), autoscalerPolicyKeys...), inScaling,
						"the scaling addon: the built-in addon's objects plus the autoscaler's policy")
				}
				for _, key := range scalingKeys {
					p, ok := objs[key]
					if !assert.True(t, ok, "mode %q: %s is in the channel", mode, key) {
						continue
					}
					assert.Equal(t, owner, p.addon, "mode %q: %s", mode, key)
					assert.Equal(t, owner, p.obj.GetLabels()[channelsapi.LabelAddonName], "mode %q: %s is labelled for its addon", mode, key)
					if builtIn == nil {
						continue
					}
					// The same object as the built-in addon's, but for the label and the bound.
					got, want := p.obj.DeepCopy(), builtIn[key].obj.DeepCopy()
					for _, o := range []*unstructured.Unstructured{got, want} {
						labels := o.GetLabels()
						delete(labels, channelsapi.LabelAddonName)
						o.SetLabels(labels)
						unstructured.RemoveNestedField(o.Object, "data", "linear")
					}
					assert.Equal(t, want, got, "mode %q: %s", mode, key)
				}
				if p, ok := objs["ConfigMap/kube-system/coredns-autoscaler"]; ok {
					params := linearParams(t, p.obj)
					assert.Equal(t, max, params["max"], "mode %q: the autoscaler's bound", mode)
					assert.Equal(t, min, params["min"], "mode %q: the autoscaler's fewest", mode)
					delete(params, "max")
					delete(params, "min")
					assert.Equal(t, map[string]interface{}{"coresPerReplica": float64(256), "nodesPerReplica": float64(16), "preventSinglePointFailure": true}, params)
				}
				if p, ok := objs["Deployment/kube-system/coredns-autoscaler"]; ok {
					containers, _, err := unstructured.NestedSlice(p.obj.Object, "spec", "template", "spec", "containers")
					require.NoError(t, err)
					require.Len(t, containers, 1)
					assert.Equal(t, facts.AutoscalerImage, containers[0].(map[string]interface{})["image"], "mode %q: the remapped, pinned image", mode)
				}
				if mode == "" {
					builtIn = objs
				}
			}
		})
	}
}

// TestSwitchingModesDeletesOnlyTheOperator: whichever mode a cluster leaves for whichever other,
// channels deletes only the operator and its instructions (the operator addon, the CoreDNS object).
// Every other object of the mode left is either in an addon of the new mode (which applies over it
// in place, so retirement leaves it: docs/channels-internals.md) or handed over to one; but the autoscaler's
// policy and binding, which go with the operator's bound they enforce when ServerSide is left.
func TestSwitchingModesDeletesOnlyTheOperator(t *testing.T) {
	for _, from := range modes {
		for _, to := range modes {
			if from == to {
				continue
			}
			t.Run(fmt.Sprintf("%q to %q", from, to), func(t *testing.T) {
				before, after := channelObjects(t, kops.ClusterSpec{}, from), channelObjects(t, kops.ClusterSpec{}, to)
				inChannel := map[string]bool{}
				for _, p := range after {
					inChannel[p.addon] = true
				}
				for key, p := range before {
					if _, claimed := after[key]; claimed || inChannel[p.addon] {
						continue
					}
					if target := p.obj.GetAnnotations()[channelsapi.AnnotationHandoverTo]; inChannel[target] {
						continue
					}
					// The autoscaler's policy goes with the operator's bound it enforces.
					if slices.Contains(autoscalerPolicyKeys, key) && to != kops.OperatorModeServerSide {
						continue
					}
					assert.Contains(t, []string{coredns.Names().AddonName, corednsmodel.CoreDNSResourceAddonName}, p.addon,
						"%s of %s would be deleted by the switch", key, p.addon)
				}
			})
		}
	}
}

// TestAutoscalerAgreesWithTheOperatorsPolicy: with the operator, the autoscaler kops runs beside it
// writes only what the operator's exact admission policy leaves to it, and never more than the
// policy admits. Its one write right is the scale of the Deployment it targets, which is the
// operator's Deployment coredns, whose replica count the policy leaves free (its one hole there);
// its bounds are those the policy checks, so that no count it sets locks the operator out of its
// next write; and the operator holds no right over the autoscaler or the budget (kops writes them).
func TestAutoscalerAgreesWithTheOperatorsPolicy(t *testing.T) {
	addons, err := OperatorBuilder{corednsmodel.Operator()}.Addons(modeContext(t, kops.ClusterSpec{}, kops.OperatorModeServerSide))
	require.NoError(t, err)
	objs, err := kubemanifest.DecodeStrict(addonManifest(t, addons, coredns.ScalingAddonName))
	require.NoError(t, err)
	d := corednsmodel.Descriptor()

	var writes []string
	var args []string
	var params map[string]interface{}
	for _, o := range objs {
		switch o.Kind {
		case "Role", "ClusterRole":
			for _, r := range policyRules(o) {
				for _, v := range r.Verbs {
					if v != "get" && v != "list" && v != "watch" {
						writes = append(writes, fmt.Sprintf("%s %s %v/%v %v", o.Kind, v, r.APIGroups, r.Resources, r.ResourceNames))
					}
				}
			}
		case "Deployment":
			dep := o.Typed.(*appsv1.Deployment)
			require.Len(t, dep.Spec.Template.Spec.Containers, 1)
			args = dep.Spec.Template.Spec.Containers[0].Command
		case "ConfigMap":
			u := &unstructured.Unstructured{}
			require.NoError(t, yaml.Unmarshal(o.Raw, &u.Object))
			params = linearParams(t, u)
		}
	}
	assert.Equal(t, []string{
		"Role update [apps]/[deployments/scale] [coredns]",
		"Role patch [apps]/[deployments/scale] [coredns]",
	}, writes, "the autoscaler's only writes: the scale of Deployment coredns")
	assert.Contains(t, args, "--target=deployment/"+coredns.CoreDNSDeployment)
	assert.Contains(t, args, "--namespace="+d.WatchNamespace)
	assert.Contains(t, d.Managed, operator.Managed{Kind: "Deployment", Name: coredns.CoreDNSDeployment},
		"the Deployment it scales is the one whose replicas the operator's policy leaves free")

	require.NotNil(t, params)
	min, max := d.ReplicaBounds()
	assert.Equal(t, float64(min), params["min"], "the autoscaler's fewest is the policies'")
	assert.Equal(t, float64(max), params["max"], "the autoscaler's most is the policies'")

	policies, err := kubemanifest.DecodeStrict(addonManifest(t, addons, coredns.Names().AddonName))
	require.NoError(t, err)
	var expressions []string
	for _, o := range policies {
		switch o.Kind {
		case "ValidatingAdmissionPolicy":
			for _, v := range o.Typed.(*admissionregistrationv1.ValidatingAdmissionPolicy).Spec.Validations {
				expressions = append(expressions, v.Expression)
			}
		case "Role", "ClusterRole":
			for _, r := range policyRules(o) {
				for _, res := range r.Resources {
					assert.NotContains(t, []string{"deployments/scale", "poddisruptionbudgets", "roles", "rolebindings", "clusterroles", "clusterrolebindings"}, res,
						"the operator's %s %s: no right over the autoscaler's objects or the budget", o.Kind, o.Typed.GetName())
				}
				assert.NotContains(t, r.ResourceNames, "coredns-autoscaler", "the operator's %s %s", o.Kind, o.Typed.GetName())
			}
		}
	}
	bound := fmt.Sprintf("object.spec.?replicas.orValue(1) >= 1 && object.spec.?replicas.orValue(1) <= %d", d.MaxReplicas)
	assert.True(t, containsSubstring(expressions, bound), "the policy bounds the replicas as the autoscaler does: %s", bound)
	assert.True(t, containsSubstring(expressions, `k in ["replicas"] || (k in variables.deployment_spec`),
		"the policy leaves the replica count of Deployment coredns to the autoscaler")
}

// policyRules are the rules of a decoded Role or ClusterRole.
func policyRules(o *kubemanifest.Object) []rbacv1.PolicyRule {
	switch r := o.Typed.(type) {
	case *rbacv1.Role:
		return r.Rules
	case *rbacv1.ClusterRole:
		return r.Rules
	}
	return nil
}

// containsSubstring reports whether any of list contains sub.
func containsSubstring(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
