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

package addonapi

import (
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operator/confine"
)

// Operator is one addon operator's line in the registry (addons.Operators): the addon's own data
// and hooks. Everything shared (packages, rights, admission policy, namespace, custom resource) is
// derived from it by addons.OperatorBuilder.
type Operator struct {
	Descriptor *confine.Descriptor
	// Binary is the Go package `make images` builds into the operator package's image.
	Binary string
	// Packages are the channel packages the operator deploys; the first gives the instructions'
	// version and their addon's id.
	Packages []string
	// ResourceAddon names the addon holding the custom resource kops writes.
	ResourceAddon string
	// ClusterDNS makes `kops validate cluster` report "DNS: operator".
	ClusterDNS bool
	// Mode is kops.OperatorModeServerSide, kops.OperatorModeClientSide, or "" when the cluster does
	// not ask for the addon; asked only with UseAddonOperators active.
	Mode func(spec *kops.ClusterSpec) string
	// Instructions renders the custom resource's spec, from which the admission policy is derived.
	Instructions func(ctx *model.KopsModelContext) (*Instructions, error)
	// Args are the operator's "--name=value" arguments; nil for none.
	Args func(ctx *model.KopsModelContext) ([]string, error)
	// Before are the addon's own addons, applied before the operator's; BeforeNames names every one.
	Before      func(ctx *model.KopsModelContext) ([]*Addon, error)
	BeforeNames []string
	// BuiltIn is the addon kops renders itself; nil when kops has none.
	BuiltIn *BuiltIn
	// BuiltInOnly says why a spec asks for what the operator cannot run (its CRD would refuse the
	// instructions), or "": such a cluster keeps the built-in addon, rendered from its spec, and
	// `kops update` says so. Nil when the operator runs everything the spec can ask.
	BuiltInOnly func(spec *kops.ClusterSpec) string
}

// Instructions are the custom resource kops hands the operator, and how the policy binds it.
type Instructions struct {
	Spec interface{}
	// Version is the id of the resource's addon.
	Version string
	// Rendered and Marked are the renderer's output for Spec and for Spec with every param replaced
	// by its marker; the exact admission policy is derived from both.
	Rendered, Marked []byte
	// Params are the spec's fields the policy binds.
	Params []confine.Param
}

// UsesOperator says whether o's addon runs through its operator (mode ServerSide, flags active).
func (o *Operator) UsesOperator(ctx *model.KopsModelContext) bool {
	return o.ActiveMode(ctx) == kops.OperatorModeServerSide
}

// ExpandsClientSide says whether kops expands o's custom resource itself (mode ClientSide).
func (o *Operator) ExpandsClientSide(ctx *model.KopsModelContext) bool {
	return o.ActiveMode(ctx) == kops.OperatorModeClientSide
}

// ActiveMode is the cluster's mode for o's addon with UseAddonOperators active, and "" without it
// or where the spec keeps the addon built in (KeptBuiltIn).
func (o *Operator) ActiveMode(ctx *model.KopsModelContext) string {
	if !ctx.FeatureFlags.Active(featureflag.UseAddonOperators) || o.KeptBuiltIn(&ctx.Cluster.Spec) != "" {
		return ""
	}
	return o.Mode(&ctx.Cluster.Spec)
}

// KeptBuiltIn is why spec keeps the addon built in whatever its mode, or "" when it does not.
func (o *Operator) KeptBuiltIn(spec *kops.ClusterSpec) string {
	if o.BuiltInOnly == nil || o.Mode(spec) == "" {
		return ""
	}
	return o.BuiltInOnly(spec)
}

// BuiltIn is the addon kops renders itself, under kops's own name and id. With the operator flags
// it renders the custom resource's spec, so that switching between built-in and client-side
// updates the same objects in place; while the operator runs it is written under takeOver only,
// handing the objects to the operator's addon.
type BuiltIn struct {
	Name, ID string
	// Selector is the addon's channel selector; nil for kops's default (k8s-addon=<name>).
	Selector map[string]string
	// Render renders the manifest from the cluster spec or, when fromResource, from the custom
	// resource's spec.
	Render func(ctx *model.KopsModelContext, fromResource bool) ([]byte, error)
	// NeedsPKI sets the channel entry's needsPKI, as kops's bootstrap channel does: channels then
	// creates the addon's CA and cert-manager Issuer. Nil: never.
	NeedsPKI func(spec *kops.ClusterSpec) bool
}
