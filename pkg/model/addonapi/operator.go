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

// Operator is one addon operator kops can deploy: its line in the registry (addons.Operators). Everything that is not the
// addon's own is done once, by addons.OperatorBuilder, from this value: the channel packages, the operator
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
	return o.ActiveMode(ctx) == kops.OperatorModeServerSide
}

// ExpandsClientSide says whether kops expands o's custom resource itself (operatorMode
// ClientSide with the operator flags on): no operator runs.
func (o *Operator) ExpandsClientSide(ctx *model.KopsModelContext) bool {
	return o.ActiveMode(ctx) == kops.OperatorModeClientSide
}

// ActiveMode is the cluster's mode for o's addon with UseAddonOperators active, and "" without it.
func (o *Operator) ActiveMode(ctx *model.KopsModelContext) string {
	if !ctx.FeatureFlags.Active(featureflag.UseAddonOperators) {
		return ""
	}
	return o.Mode(&ctx.Cluster.Spec)
}

// BuiltIn is the addon kops renders itself for an operator's addon (CoreDNS's
// coredns.addons.k8s.io, metrics-server.addons.k8s.io), named as kops's bootstrap channel names it.
// Without the operator flags it renders from the cluster spec. With them it renders the spec of the
// custom resource kops writes: in client-side mode it carries that expansion under the built-in
// addon's name and id (so switching between built-in and client-side updates the same objects in
// place), and while the operator runs it is written under the channel's takeOver only, handing the
// managed objects over to the operator's addon exactly as from the built-in addon.
type BuiltIn struct {
	// Name and ID are the built-in addon's, kops's own.
	Name, ID string
	// Selector is the addon's selector in the channel; nil for kops's default (k8s-addon=<name>).
	Selector map[string]string
	// Render renders the addon's manifest: from the cluster spec, or, when fromResource, from the
	// spec of the custom resource the operator is given (the Operator's packages are loaded).
	Render func(ctx *model.KopsModelContext, fromResource bool) ([]byte, error)
}
