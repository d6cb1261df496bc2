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
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operator/confine"
)

// Operator is one addon operator kops can deploy: its line in Operators. Everything that is not the
// addon's own is done once, by OperatorBuilder, from this value: the channel packages, the operator
// package (image default and remap, the allow-list, kops's own objects), the rights and the
// admission policy generated from the descriptor, the locked default accounts of its namespace, the
// labelled custom resource and the cluster-scoped prerequisites. What is the addon's own comes as
// data and a few hooks.
type Operator struct {
	// Descriptor is the operator as data (package operator): its names, custom resource, managed
	// objects, rights and prerequisites.
	Descriptor *confine.Descriptor
	// Binary is the Go package of the operator's binary, which `make images` builds into the image
	// the stable channel's operator package names.
	Binary string
	// Packages are the channel packages the addon reads beside the operator's own
	// (Descriptor.AddonName): what the operator deploys. The first names the version of the
	// instructions, the id of their addon.
	Packages []string
	// ResourceAddon names the addon holding the custom resource kops writes, the operator's
	// instructions.
	ResourceAddon string
	// ClusterDNS says the addon is the cluster's DNS (`kops validate cluster` says "DNS: operator").
	ClusterDNS bool
	// Mode says whether the cluster asks for the addon and where its custom resource is expanded:
	// kops.OperatorModeServerSide, kops.OperatorModeClientSide, or "" when the cluster does not ask
	// for it. It is asked only with UseAddonOperators active.
	Mode func(spec *kops.ClusterSpec) string
	// Instructions renders the custom resource's spec for the cluster, and what the admission
	// policy is derived from. The channel packages are loaded.
	Instructions func(ctx *model.KopsModelContext) (*Instructions, error)
	// Args are the operator's arguments ("--name=value") kops sets from the cluster; nil for none.
	Args func(ctx *model.KopsModelContext) ([]string, error)
	// Before are addons of the addon's own, written by kops and applied before the operator's
	// (CoreDNS: the RBAC its pods need, its autoscaler); BeforeNames names every one it may write.
	Before      func(ctx *model.KopsModelContext) ([]*Addon, error)
	BeforeNames []string
	// BuiltIn is the addon kops renders itself, without the operator or in client-side mode; nil
	// when kops has none.
	BuiltIn *BuiltIn
}

// Instructions are the custom resource kops hands the operator, and how the policy binds it.
type Instructions struct {
	// Spec is the custom resource's spec (its Go type, marshalled as the CRD's schema says).
	Spec interface{}
	// Version is the version of the addon the spec deploys: the id of the resource's addon.
	Version string
	// Rendered is what the addon's renderer gives for Spec; Marked what it gives for Spec with
	// every param replaced by its marker. The exact admission policy is derived from both.
	Rendered, Marked []byte
	// Params are the spec's fields the policy binds.
	Params []confine.Param
}

// UsesOperator says whether the cluster runs o's addon through its operator on the server: the
// cluster asks for the addon, UseAddonOperators is active (with the ClusterAddons it requires),
// and the addon's operatorMode is ServerSide (the default).
func (o *Operator) UsesOperator(ctx *model.KopsModelContext) bool {
	return o.mode(ctx) == kops.OperatorModeServerSide
}

// ExpandsClientSide says whether kops expands o's custom resource itself (operatorMode
// ClientSide with the operator flags on): no operator runs.
func (o *Operator) ExpandsClientSide(ctx *model.KopsModelContext) bool {
	return o.mode(ctx) == kops.OperatorModeClientSide
}

func (o *Operator) mode(ctx *model.KopsModelContext) string {
	if !ctx.FeatureFlags.Active(featureflag.UseAddonOperators) {
		return ""
	}
	return o.Mode(&ctx.Cluster.Spec)
}

// OperatorBuilder builds the addons of one operator of Operators, in channel order: the addon's
// own (Before), its cluster-scoped prerequisites, the operator, its custom resource.
type OperatorBuilder struct{ *Operator }

// Owns names every addon the operator's builder may write.
func (b OperatorBuilder) Owns() []string {
	d := b.Descriptor
	names := append([]string(nil), b.BeforeNames...)
	if len(d.Prerequisites) > 0 {
		names = append(names, d.PrerequisitesAddon())
	}
	return append(names, d.AddonName, b.ResourceAddon)
}

// Packages are the operator package and the addon's packages, when the operator runs.
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
	// Every descriptor is checked before anything is written from it, with prerequisites or
	// without: the registry's and any other handed to BuildersFor.
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("operator %s: %w", d.AddonName, err)
	}
	pkg, err := requirePackage(ctx, d.AddonName, true)
	if err != nil {
		return nil, err
	}
	for _, name := range b.Operator.Packages {
		if _, err := requirePackage(ctx, name, false); err != nil {
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
		out = append(out, newAddon(d.PrerequisitesAddon(), pkg.Version, prerequisites))
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
		newAddon(d.AddonName, pkg.Version, manifest),
		newAddon(b.ResourceAddon, instructions.Version, resource)), nil
}

// operatorManifest is the operator's addon: its package, finished, with the rights and the
// admission policy derived from what kops renders for the instructions (what kops would deploy
// itself is what the operator may deploy), and its namespace's default account locked.
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
	// The operator's namespace is one kops creates: its default ServiceAccount gets no token.
	return lockDefaultServiceAccounts(manifest)
}

// policy is the admission policy confining the operator, derived from what the addon's renderer
// gives for the instructions: what kops would deploy itself is what the operator may deploy.
func (b OperatorBuilder) policy(in *Instructions) ([]byte, error) {
	scope, err := b.Descriptor.ScopeFromManifest(in.Rendered, in.Marked, in.Params)
	if err != nil {
		return nil, err
	}
	return confine.PolicyManifest(scope)
}

// prerequisites is the addon of the descriptor's prerequisites, labelled as that addon's: kops
// writes them, before the operator runs, and the operator may write none of them. Addons has
// validated the descriptor.
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

// resource is the custom resource kops writes, labelled as its addon's.
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

func requirePackage(ctx *model.KopsModelContext, name string, needManifest bool) (*channels.Package, error) {
	p := ctx.Packages[name]
	switch {
	case p == nil:
		return nil, fmt.Errorf("channel package %q was not loaded", name)
	case needManifest && p.Manifest == nil:
		return nil, fmt.Errorf("channel package %q version %s has no manifest (packages/%s/%s/manifest.yaml next to the channel)", name, p.Version, name, p.Version)
	}
	return p, nil
}

// packageImage is the image of a channel package that names what an operator deploys: the
// package's image, or repository:v<version>, remapped like every other image kops deploys.
func packageImage(p *channels.Package, repository string, remapper *assets.Remapper) (string, error) {
	image := p.Image
	if image == "" {
		image = repository + ":v" + p.Version
	}
	remapped, err := remapper.RemapImage(image)
	if err != nil {
		return "", fmt.Errorf("package %s version %s: %w", p.Name, p.Version, err)
	}
	return remapped, nil
}
