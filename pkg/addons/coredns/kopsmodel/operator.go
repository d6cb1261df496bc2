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
	"bytes"
	"fmt"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

const (
	// CoreDNSPackage carries the CoreDNS versions the operator can deploy.
	CoreDNSPackage = "coredns"
	// CoreDNSResourceAddonName is the addon holding the CoreDNS object.
	CoreDNSResourceAddonName = "coredns.addons.x-k8s.io"
)

// Operator is CoreDNS's line of the operator registry. kops writes CoreDNS's RBAC, autoscaler and
// PodDisruptionBudget itself (Before), so the operator needs no RBAC rights and writes neither.
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

// coreDNSMode is kubeDNS.operatorMode (default ServerSide), or "" when the cluster runs no CoreDNS.
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

// coreDNSInstructions derives the policy from what kops would deploy itself, so that is what the
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

// renderScaling bounds the autoscaler by the operator's ReplicaBounds, in its parameters and by
// an admission policy on its identity: a count the operator's policy refuses would lock the
// operator out of every write to Deployment coredns, and none is DNS down.
func renderScaling(ctx *model.KopsModelContext) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	d := Descriptor()
	min, max := d.ReplicaBounds()
	scaling, err := coredns.RenderScaling(facts, min, max)
	if err != nil {
		return nil, err
	}
	policy, err := d.ScalerPolicyManifest(Autoscaler())
	if err != nil {
		return nil, err
	}
	return append(append(bytes.TrimRight(scaling, "\n"), "\n---\n"...), policy...), nil
}

// ObjectSpec is the spec of the CoreDNS object kops writes. What the CRD would refuse is refused
// here first, naming the cluster spec's field to fix, rather than by the API server at apply time.
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
		// The same checksum the built-in addon renders, so switching modes rolls no pod.
		CorefileChecksum: coredns.CorefileChecksum(corefile),
	}, nil
}

// CoreDNSImageRepository names the image of a coredns package that gives none. kops always names
// the image, so what runs is pinned by kops, never the operator's choice.
const CoreDNSImageRepository = "registry.k8s.io/coredns/coredns"

// UsesOperator says whether CoreDNS runs through its operator (addonapi.Operator.UsesOperator).
func UsesOperator(ctx *model.KopsModelContext) bool {
	return Operator().UsesOperator(ctx)
}

// ExpandsClientSide says whether kops expands the CoreDNS object itself as the built-in addon.
func ExpandsClientSide(ctx *model.KopsModelContext) bool {
	return Operator().ExpandsClientSide(ctx)
}

// coreDNSBuiltIn is the built-in addon. Its takeover manifest renders the operator's spec, so a
// takeover from kops's own channels runs the image the operator will run.
func coreDNSBuiltIn() *addonapi.BuiltIn {
	return &addonapi.BuiltIn{Name: coredns.AddonName, ID: coredns.AddonID, Render: renderCoreDNSBuiltIn}
}

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

func coreDNSResourceSpec(ctx *model.KopsModelContext) (coredns.Spec, error) {
	version, err := addonapi.RequirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return coredns.Spec{}, err
	}
	spec, err := ObjectSpec(ctx, version)
	return spec, err
}

// Render renders spec with the cluster's facts, as every mode does.
func Render(ctx *model.KopsModelContext, spec coredns.Spec) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.Render(spec, facts)
}

// operatorClusterFacts passes the operator the facts kops renders with, so that it renders the same
// objects the policy was derived from.
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
