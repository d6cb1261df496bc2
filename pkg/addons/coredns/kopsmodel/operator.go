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

package kopsmodel

import (
	"fmt"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

// The channel packages and addons of CoreDNS run by its operator.
const (
	// CoreDNSPackage carries the CoreDNS versions the operator can deploy.
	CoreDNSPackage = "coredns"
	// CoreDNSResourceAddonName is the addon holding the CoreDNS object, the operator's instructions.
	CoreDNSResourceAddonName = "coredns.addons.x-k8s.io"
)

// coreDNSOperator is CoreDNS's line of Operators: CoreDNS run by the cluster-addons operator, in
// four addons applied in order: the RBAC CoreDNS needs (pre-created by kops, so the operator needs
// no RBAC rights), the autoscaler and PodDisruptionBudget of CoreDNS (kops's too: the operator may
// write neither), the operator with the rights generated from its descriptor, and the CoreDNS
// object. The first two are CoreDNS's own (Before); the rest is OperatorBuilder's.
func Operator() *addonapi.Operator {
	return &addonapi.Operator{
		Descriptor:    Descriptor(),
		Binary:        "./cmd/coredns-operator",
		Packages:      []string{CoreDNSPackage},
		ResourceAddon: CoreDNSResourceAddonName,
		ClusterDNS:    true,
		Mode:          coreDNSMode,
		Instructions:  coreDNSInstructions,
		Args:          operatorClusterFacts,
		Before:        coreDNSBefore,
		BeforeNames:   []string{coredns.RBACAddonName, coredns.ScalingAddonName},
		BuiltIn:       coreDNSBuiltIn(),
	}
}

// coreDNSMode is ServerSide or ClientSide when the cluster runs CoreDNS (kubeDNS.operatorMode,
// ServerSide by default), "" when it runs no CoreDNS.
func coreDNSMode(spec *kops.ClusterSpec) string {
	dns := spec.KubeDNS
	switch {
	case dns == nil || dns.Provider != kops.DNSProviderCoreDNS:
		return ""
	case dns.OperatorMode == "":
		return kops.OperatorModeServerSide
	}
	return dns.OperatorMode
}

// coreDNSBefore are CoreDNS's own addons beside its operator: the RBAC its pods need and its
// autoscaler and budget.
func coreDNSBefore(ctx *model.KopsModelContext) ([]*addonapi.Addon, error) {
	rbac, err := coredns.RenderRBAC()
	if err != nil {
		return nil, err
	}
	scaling, err := renderScaling(ctx)
	if err != nil {
		return nil, err
	}
	return []*addonapi.Addon{
		addonapi.NewAddon(coredns.RBACAddonName, coredns.RBACAddonID, rbac),
		addonapi.NewAddon(coredns.ScalingAddonName, coredns.ScalingAddonID, scaling),
	}, nil
}

// coreDNSInstructions are the CoreDNS object's spec for the cluster and the renderings of it and
// of its marked spec, which the policy is derived from: what kops would deploy itself is what the
// operator may deploy.
func coreDNSInstructions(ctx *model.KopsModelContext) (*addonapi.Instructions, error) {
	version, err := addonapi.RequirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return nil, err
	}
	spec, err := ObjectSpec(ctx, version)
	if err != nil {
		return nil, err
	}
	rendered, err := Render(ctx, spec)
	if err != nil {
		return nil, err
	}
	marked, err := Render(ctx, Marked(spec))
	if err != nil {
		return nil, err
	}
	return &addonapi.Instructions{Spec: spec, Version: version.Version, Rendered: rendered, Marked: marked, Params: Params(spec)}, nil
}

// renderScaling renders the autoscaler and the PodDisruptionBudget the built-in addon would, as an
// addon of their own: the objects a switch of mode moves in place. The autoscaler may set no more
// replicas than the operator's admission policy admits on Deployment coredns, or it would lock the
// operator out of every write to it.
func renderScaling(ctx *model.KopsModelContext) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.RenderScaling(facts, MaxReplicas)
}

// ObjectSpec is the spec of the CoreDNS object kops writes, from the completed cluster and
// the channel's CoreDNS package. Everything the CRD would refuse is refused here first, with the
// field of the cluster spec to fix, so that it never reaches the API server at apply time.
func ObjectSpec(ctx *model.KopsModelContext, version *channels.Package) (coredns.Spec, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	corefile := coredns.Corefile(dns)
	if len(corefile) > coredns.MaxCorefileBytes {
		where := "spec.kubeDNS.externalCoreFile"
		if dns.ExternalCoreFile == "" {
			where = "spec.kubeDNS (the Corefile generated from it)"
		}
		return coredns.Spec{}, fmt.Errorf("%s: %d bytes is too long: the CoreDNS operator accepts a Corefile of at most %d bytes (64 KiB)",
			where, len(corefile), coredns.MaxCorefileBytes)
	}
	image, err := addonapi.PackageImage(version, CoreDNSImageRepository, ctx.Assets)
	if err != nil {
		return coredns.Spec{}, err
	}
	return coredns.Spec{
		Version:   version.Version,
		Image:     image,
		DNSDomain: dns.Domain,
		DNSIP:     dns.ServerIP,
		Corefile:  corefile,
	}, nil
}

// CoreDNSImageRepository is where CoreDNS publishes its images, tagged v<version>; it names the
// image of a channel's coredns package that gives none. kops always names the image, so that what
// runs is pinned by kops and never the operator's choice.
const CoreDNSImageRepository = "registry.k8s.io/coredns/coredns"

// UsesCoreDNSOperator says whether CoreDNS is deployed through its operator on the server: the
// cluster asks for CoreDNS, UseAddonOperators is active (with the ClusterAddons it requires), and
// kubeDNS.operatorMode is ServerSide (the default).
func UsesOperator(ctx *model.KopsModelContext) bool {
	return Operator().UsesOperator(ctx)
}

// ExpandsCoreDNSClientSide says whether kops expands the CoreDNS object itself
// (kubeDNS.operatorMode ClientSide with the operator flags on): the channel then carries the
// expanded objects as the built-in addon, and no operator runs.
func ExpandsClientSide(ctx *model.KopsModelContext) bool {
	return Operator().ExpandsClientSide(ctx)
}

// coreDNSBuiltIn is the built-in CoreDNS addon, coredns.addons.k8s.io. When the operator runs
// CoreDNS, its takeover manifest matters on a cluster where kops's own channels applied it (a
// record that is not ours): channels applies it over kops's objects and then retires it, handing
// Deployment coredns, Service kube-dns, ConfigMap coredns and PodDisruptionBudget kube-dns over to
// the operator's addon exactly as when the built-in addon was ours. It renders the spec of the
// CoreDNS object the operator is given, so that the takeover runs the image the operator will run.
func coreDNSBuiltIn() *addonapi.BuiltIn {
	return &addonapi.BuiltIn{Name: coredns.AddonName, ID: coredns.AddonID, Render: renderCoreDNSBuiltIn}
}

// renderCoreDNSBuiltIn renders CoreDNS from spec.kubeDNS, or from the CoreDNS object kops hands
// the operator (the channel's CoreDNS package).
func renderCoreDNSBuiltIn(ctx *model.KopsModelContext, fromResource bool) ([]byte, error) {
	spec, err := coredns.ClusterSpec(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if fromResource {
		spec, err = coreDNSResourceSpec(ctx)
	}
	if err != nil {
		return nil, err
	}
	return Render(ctx, spec)
}

// coreDNSResourceSpec is the spec of the CoreDNS object kops writes, as the renderer takes it.
func coreDNSResourceSpec(ctx *model.KopsModelContext) (coredns.Spec, error) {
	version, err := addonapi.RequirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return coredns.Spec{}, err
	}
	spec, err := ObjectSpec(ctx, version)
	return spec, err
}

// Render renders the CoreDNS objects of spec with the cluster's facts, as every mode does.
func Render(ctx *model.KopsModelContext, spec coredns.Spec) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.Render(spec, facts)
}

// operatorClusterFacts is the --cluster-facts argument kops gives the operator: the facts of the
// cluster that the built-in addon and client-side mode render with and the admission policy is
// derived from, so that the operator renders the same objects. An argument rather than a
// ConfigMap: it needs no right to read anything, and changing it rolls the operator out.
func operatorClusterFacts(ctx *model.KopsModelContext) ([]string, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	encoded, err := coredns.EncodeFacts(facts)
	if err != nil {
		return nil, err
	}
	return []string{"--" + coredns.FactsFlag + "=" + encoded}, nil
}
