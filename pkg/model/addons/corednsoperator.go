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

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	components "k8s.io/kops/pkg/addons/coredns"
	corednsoperator "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
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
func coreDNSOperator() *Operator {
	return &Operator{
		Descriptor:    corednsoperator.Descriptor(),
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
func coreDNSBefore(ctx *model.KopsModelContext) ([]*Addon, error) {
	rbac, err := coredns.RenderRBAC()
	if err != nil {
		return nil, err
	}
	scaling, err := renderScaling(ctx)
	if err != nil {
		return nil, err
	}
	return []*Addon{
		newAddon(coredns.RBACAddonName, coredns.RBACAddonID, rbac),
		newAddon(coredns.ScalingAddonName, coredns.ScalingAddonID, scaling),
	}, nil
}

// coreDNSInstructions are the CoreDNS object's spec for the cluster and the renderings of it and
// of its marked spec, which the policy is derived from: what kops would deploy itself is what the
// operator may deploy.
func coreDNSInstructions(ctx *model.KopsModelContext) (*Instructions, error) {
	version, err := requirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return nil, err
	}
	spec, err := coreDNSObjectSpec(ctx, version)
	if err != nil {
		return nil, err
	}
	rendered, err := renderCoreDNS(ctx, spec)
	if err != nil {
		return nil, err
	}
	marked, err := renderCoreDNS(ctx, corednsoperator.Marked(spec))
	if err != nil {
		return nil, err
	}
	return &Instructions{Spec: spec, Version: version.Version, Rendered: rendered, Marked: marked, Params: corednsoperator.Params(spec)}, nil
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
	return coredns.RenderScaling(facts, corednsoperator.MaxReplicas)
}

// coreDNSObjectSpec is the spec of the CoreDNS object kops writes, from the completed cluster and
// the channel's CoreDNS package. Everything the CRD would refuse is refused here first, with the
// field of the cluster spec to fix, so that it never reaches the API server at apply time.
func coreDNSObjectSpec(ctx *model.KopsModelContext, version *channels.Package) (coredns.Spec, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	corefile := components.Corefile(dns)
	if len(corefile) > coredns.MaxCorefileBytes {
		where := "spec.kubeDNS.externalCoreFile"
		if dns.ExternalCoreFile == "" {
			where = "spec.kubeDNS (the Corefile generated from it)"
		}
		return coredns.Spec{}, fmt.Errorf("%s: %d bytes is too long: the CoreDNS operator accepts a Corefile of at most %d bytes (64 KiB)",
			where, len(corefile), coredns.MaxCorefileBytes)
	}
	image, err := packageImage(version, CoreDNSImageRepository, ctx.Assets)
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
func UsesCoreDNSOperator(ctx *model.KopsModelContext) bool {
	return coreDNSOperator().UsesOperator(ctx)
}

// ExpandsCoreDNSClientSide says whether kops expands the CoreDNS object itself
// (kubeDNS.operatorMode ClientSide with the operator flags on): the channel then carries the
// expanded objects as the built-in addon, and no operator runs.
func ExpandsCoreDNSClientSide(ctx *model.KopsModelContext) bool {
	return coreDNSOperator().ExpandsClientSide(ctx)
}
