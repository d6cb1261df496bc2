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
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/model"
)

// coreDNSBuiltIn is the built-in CoreDNS addon, coredns.addons.k8s.io. When the operator runs
// CoreDNS, its takeover manifest matters on a cluster where kops's own channels applied it (a
// record that is not ours): channels applies it over kops's objects and then retires it, handing
// Deployment coredns, Service kube-dns, ConfigMap coredns and PodDisruptionBudget kube-dns over to
// the operator's addon exactly as when the built-in addon was ours. It renders the spec of the
// CoreDNS object the operator is given, so that the takeover runs the image the operator will run.
func coreDNSBuiltIn() *BuiltIn {
	return &BuiltIn{Name: coredns.AddonName, ID: coredns.AddonID, Render: renderCoreDNSBuiltIn}
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
	return renderCoreDNS(ctx, spec)
}

// coreDNSResourceSpec is the spec of the CoreDNS object kops writes, as the renderer takes it.
func coreDNSResourceSpec(ctx *model.KopsModelContext) (coredns.Spec, error) {
	version, err := requirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return coredns.Spec{}, err
	}
	spec, err := coreDNSObjectSpec(ctx, version)
	return spec, err
}

// renderCoreDNS renders the CoreDNS objects of spec with the cluster's facts, as every mode does.
func renderCoreDNS(ctx *model.KopsModelContext, spec coredns.Spec) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.Render(spec, facts)
}
