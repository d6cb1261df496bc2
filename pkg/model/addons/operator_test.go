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
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
)

// A throwaway operator, as data only, goes through the generic builder: what an entry of
// Operators gets without code of its own.
type throwawaySpec struct {
	Image string `json:"image"`
}

type throwawayResource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              throwawaySpec `json:"spec"`
}

const throwawayImage = "registry.example.com/throwaway:v1.0.0"

const throwawayRendered = `apiVersion: v1
kind: ServiceAccount
metadata: {name: throwaway, namespace: kube-system}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: throwaway, namespace: kube-system}
data: {image: "` + throwawayImage + `"}
`

const throwawayPackage = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: throwaway-operator
  namespace: throwaway-operator-system
spec:
  selector: {matchLabels: {k8s-app: throwaway-operator}}
  template:
    metadata: {labels: {k8s-app: throwaway-operator}}
    spec:
      serviceAccountName: throwaway-operator
      securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: manager
        image: kops-addons/throwaway-operator:v0.1.0
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
`

func throwawayOperator() *Operator {
	const ns, watch = "throwaway-operator-system", "kube-system"
	return &Operator{
		Descriptor: &confine.Descriptor{
			Descriptor: operator.Descriptor{
				Subject: "throwaway", Names: operator.NamesOf("throwaway"),
				WatchNamespace: watch, Instructions: "throwaway",
				CRD:     operator.CRD{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "throwaways", Kind: "Throwaway", Type: reflect.TypeOf(throwawayResource{})},
				Managed: []operator.Managed{{Kind: "ServiceAccount", Name: "throwaway"}, {Kind: "ConfigMap", Name: "throwaway"}},
			},
			MaxReplicas: 1,
			Rights: []confine.Right{
				{Namespace: watch, Resources: []string{"configmaps", "serviceaccounts"}, Verbs: []string{"get", "update", "patch"}, ResourceNames: []string{"throwaway"}, Why: "Reconcile its objects."},
			},
			Prerequisites: []runtime.Object{
				&rbacv1.ClusterRole{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"}, ObjectMeta: metav1.ObjectMeta{Name: "throwaway"},
					Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"get", "list", "watch"}}}},
				&rbacv1.ClusterRoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRoleBinding"}, ObjectMeta: metav1.ObjectMeta{Name: "throwaway"},
					RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "throwaway"},
					Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "throwaway", Namespace: watch}}},
			},
		},
		Binary:        "./cmd/throwaway-operator",
		ResourceAddon: "throwaway.addons.x-k8s.io",
		Mode:          func(*kops.ClusterSpec) string { return kops.OperatorModeServerSide },
		Instructions: func(*model.KopsModelContext) (*Instructions, error) {
			return &Instructions{
				Spec: throwawaySpec{Image: throwawayImage}, Version: "1.0.0",
				Rendered: []byte(throwawayRendered),
				Marked:   []byte(strings.Replace(throwawayRendered, throwawayImage, "marker.invalid/throwaway:marker", 1)),
				Params:   []confine.Param{{Field: "spec.image", Value: throwawayImage, Marker: "marker.invalid/throwaway:marker"}},
			}, nil
		},
	}
}

func TestOperatorBuilderBuildsAnOperatorFromItsData(t *testing.T) {
	o := throwawayOperator()
	require.NoError(t, o.Descriptor.Validate())
	b := OperatorBuilder{o}
	assert.Equal(t, []string{"prerequisites.throwaway.addons.x-k8s.io", "operator.throwaway.addons.x-k8s.io", "throwaway.addons.x-k8s.io"}, b.Owns())

	ctx := operatorContext(t, map[string]*channels.Package{
		o.Descriptor.AddonName: {Name: o.Descriptor.AddonName, Version: "0.1.0", Manifest: []byte(throwawayPackage)},
	}, &kops.AssetsSpec{ContainerRegistry: "mirror.example.com"})
	assert.Equal(t, []string{o.Descriptor.AddonName}, b.Packages(ctx))
	got, err := b.Addons(ctx)
	require.NoError(t, err)
	var names []string
	for _, a := range got {
		names = append(names, a.Spec.Name+"/"+a.Spec.ID)
	}
	assert.Equal(t, []string{"prerequisites.throwaway.addons.x-k8s.io/0.1.0", "operator.throwaway.addons.x-k8s.io/0.1.0", "throwaway.addons.x-k8s.io/1.0.0"}, names,
		"the prerequisites first, by kops, then the operator, then its instructions")

	// The prerequisites are kops's, labelled as their addon's; the operator's addon holds none.
	prerequisites, err := kubemanifest.DecodeStrict(got[0].Manifest)
	require.NoError(t, err)
	require.Len(t, prerequisites, 2)
	for _, p := range prerequisites {
		assert.Equal(t, "prerequisites.throwaway.addons.x-k8s.io", p.Typed.GetLabels()[channelsapi.LabelAddonName])
	}
	assert.NotContains(t, string(got[1].Manifest), "kind: ClusterRole")
	assert.Contains(t, string(got[1].Manifest), "image: mirror.example.com/kops-addons/throwaway-operator:v0.1.0", "the operator's image, remapped")
	assert.Contains(t, string(got[1].Manifest), "name: throwaway-operator-scope-exact", "the exact policy, from the descriptor")
	assert.Contains(t, string(got[1].Manifest), "automountServiceAccountToken: false", "its namespace's default account locked")

	// What kops writes for it decodes strictly with the kinds the registry derives: its custom
	// resource into its Go type, its typed prerequisites into theirs.
	kinds := KindsOf([]*Operator{o})
	assert.Contains(t, kinds, "rbac.authorization.k8s.io/v1/ClusterRoleBinding")
	for _, a := range got {
		_, err := kubemanifest.DecodeStrict(a.Manifest, kinds)
		assert.NoError(t, err, a.Spec.Name)
	}
	_, err = kubemanifest.DecodeStrict([]byte("apiVersion: addons.x-k8s.io/v1alpha1\nkind: Throwaway\nmetadata: {name: x}\nspec: {image: x, other: y}\n"), kinds)
	assert.ErrorContains(t, err, `unknown field "spec.other"`, "the custom resource's type decides what it holds")

	var resource map[string]interface{}
	require.NoError(t, yaml.Unmarshal(got[2].Manifest, &resource))
	assert.Equal(t, map[string]interface{}{
		"apiVersion": "addons.x-k8s.io/v1alpha1", "kind": "Throwaway",
		"metadata": map[string]interface{}{"name": "throwaway", "namespace": "kube-system",
			"labels": map[string]interface{}{channelsapi.LabelAddonName: "throwaway.addons.x-k8s.io", channelsapi.LabelManagedBy: "kops"}},
		"spec": map[string]interface{}{"image": throwawayImage},
	}, resource)
}

// A descriptor whose prerequisites would bind the operator itself is refused before anything is
// written.
func TestOperatorBuilderRefusesPrerequisitesBindingTheOperator(t *testing.T) {
	o := throwawayOperator()
	binding := o.Descriptor.Prerequisites[1].(*rbacv1.ClusterRoleBinding)
	binding.Subjects = []rbacv1.Subject{{Kind: "ServiceAccount", Name: "throwaway-operator", Namespace: "throwaway-operator-system"}}
	ctx := operatorContext(t, map[string]*channels.Package{
		o.Descriptor.AddonName: {Name: o.Descriptor.AddonName, Version: "0.1.0", Manifest: []byte(throwawayPackage)},
	}, nil)
	_, err := OperatorBuilder{o}.Addons(ctx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Prerequisites[1].subjects[0]: ServiceAccount throwaway-operator-system/throwaway-operator: a prerequisite binds only a ServiceAccount the operator manages")
}

// A descriptor without prerequisites is validated too: one naming no lease is refused, with the
// operator named, before anything is written.
func TestOperatorBuilderValidatesADescriptorWithoutPrerequisites(t *testing.T) {
	o := throwawayOperator()
	o.Descriptor.Prerequisites = nil
	o.Descriptor.LeaseName = ""
	ctx := operatorContext(t, map[string]*channels.Package{
		o.Descriptor.AddonName: {Name: o.Descriptor.AddonName, Version: "0.1.0", Manifest: []byte(throwawayPackage)},
	}, nil)
	got, err := OperatorBuilder{o}.Addons(ctx)
	require.Error(t, err)
	assert.Nil(t, got)
	assert.Contains(t, err.Error(), "operator operator.throwaway.addons.x-k8s.io: ")
	assert.Contains(t, err.Error(), "LeaseName: required")
}
