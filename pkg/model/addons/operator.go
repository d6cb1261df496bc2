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
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
	"k8s.io/kops/pkg/operator/confine"
)

// OperatorBuilder builds one operator's addons, in channel order: the addon's own (Before), its
// cluster-scoped prerequisites, the operator, its custom resource.
type OperatorBuilder struct{ *Operator }

func (b OperatorBuilder) Owns() []string {
	d := b.Descriptor
	names := append([]string(nil), b.BeforeNames...)
	if len(d.Prerequisites) > 0 {
		names = append(names, d.PrerequisitesAddon())
	}
	return append(names, d.AddonName, b.ResourceAddon)
}

func (b OperatorBuilder) Packages(ctx *model.KopsModelContext) []string {
	if !b.UsesOperator(ctx) {
		return nil
	}
	return append([]string{b.Descriptor.AddonName}, b.Operator.Packages...)
}

// Addons returns nothing unless the cluster runs the addon through its operator.
func (b OperatorBuilder) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if !b.UsesOperator(ctx) {
		return nil, nil
	}
	d := b.Descriptor
	// Any descriptor, not only the registry's, is checked before anything is written from it.
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("operator %s: %w", d.AddonName, err)
	}
	pkg, err := addonapi.RequirePackage(ctx, d.AddonName, true)
	if err != nil {
		return nil, err
	}
	for _, name := range b.Operator.Packages {
		if _, err := addonapi.RequirePackage(ctx, name, false); err != nil {
			return nil, err
		}
	}
	var out []*Addon
	if b.Before != nil {
		if out, err = b.Before(ctx); err != nil {
			return nil, err
		}
	}
	if len(d.Prerequisites) > 0 {
		prerequisites, err := b.prerequisites()
		if err != nil {
			return nil, err
		}
		out = append(out, addonapi.NewAddon(d.PrerequisitesAddon(), pkg.Version, prerequisites))
	}
	instructions, err := b.Instructions(ctx)
	if err != nil {
		return nil, err
	}
	manifest, err := b.operatorManifest(ctx, pkg, instructions)
	if err != nil {
		return nil, err
	}
	resource, err := yaml.Marshal(b.resource(instructions))
	if err != nil {
		return nil, err
	}
	return append(out,
		addonapi.NewAddon(d.AddonName, pkg.Version, manifest),
		addonapi.NewAddon(b.ResourceAddon, instructions.Version, resource)), nil
}

// operatorManifest is the operator's addon: its package, finished, with the generated rights and
// policy, and its namespace's default account locked.
func (b OperatorBuilder) operatorManifest(ctx *model.KopsModelContext, pkg *channels.Package, in *Instructions) ([]byte, error) {
	policy, err := b.policy(in)
	if err != nil {
		return nil, err
	}
	var args []string
	if b.Args != nil {
		if args, err = b.Args(ctx); err != nil {
			return nil, err
		}
	}
	manifest, err := operatorPackageManifest(b.Descriptor, pkg, ctx.Assets, policy, args)
	if err != nil {
		return nil, err
	}
	return lockDefaultServiceAccounts(manifest)
}

// policy confines the operator to what kops would deploy itself for the instructions.
func (b OperatorBuilder) policy(in *Instructions) ([]byte, error) {
	scope, err := b.Descriptor.ScopeFromManifest(in.Rendered, in.Marked, in.Params)
	if err != nil {
		return nil, err
	}
	return confine.PolicyManifest(scope)
}

// prerequisites is the manifest of the descriptor's prerequisites, which kops writes before the
// operator runs and the operator may not write. The descriptor must be validated.
func (b OperatorBuilder) prerequisites() ([]byte, error) {
	d := b.Descriptor
	objects, err := d.PrerequisiteObjects()
	if err != nil {
		return nil, err
	}
	var objs []*unstructured.Unstructured
	for _, o := range objects {
		obj := &unstructured.Unstructured{Object: o}
		if err := finishObject(obj, d.PrerequisitesAddon(), images{}); err != nil {
			return nil, err
		}
		objs = append(objs, obj)
	}
	return encodeObjects(objs)
}

func (b OperatorBuilder) resource(in *Instructions) map[string]interface{} {
	d := b.Descriptor
	return map[string]interface{}{
		"apiVersion": d.CRD.APIVersion(),
		"kind":       d.CRD.Kind,
		"metadata": map[string]interface{}{
			"name":      d.Instructions,
			"namespace": d.WatchNamespace,
			"labels":    map[string]string{channelsapi.LabelAddonName: b.ResourceAddon, channelsapi.LabelManagedBy: "kops"},
		},
		"spec": in.Spec,
	}
}
