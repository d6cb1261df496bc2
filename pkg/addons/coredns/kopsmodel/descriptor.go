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
	"strings"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/confine"
)

// MaxReplicas bounds the CoreDNS Deployment's replicas, well above what this experimental mode
// needs, so that a runaway or hostile count cannot fill the nodes.
const MaxReplicas = 50

// Descriptor is the CoreDNS operator as kops confines it (package confine generates the rest),
// built afresh on each call so no caller can change another's.
func Descriptor() *confine.Descriptor {
	return &confine.Descriptor{
		Descriptor:  *coredns.Descriptor(),
		CRDFields:   crdFields(),
		CRDColumns:  confine.CRDColumns(),
		MaxReplicas: MaxReplicas,
		Rights:      Rights(),
		Pod: confine.PodAllowance{
			PriorityClassName: "system-cluster-critical",
			NodeSelector:      map[string]string{"kubernetes.io/os": "linux"},
			Tolerations:       []string{"CriticalAddonsOnly"},
		},
	}
}

// Autoscaler is CoreDNS's cluster-proportional autoscaler as confine bounds it beside the operator:
// its policy and binding are in the addon that holds it, and so labelled.
func Autoscaler() *confine.Scaler {
	return &confine.Scaler{
		Namespace:      coredns.WatchNamespace,
		ServiceAccount: coredns.AutoscalerName,
		Deployment:     coredns.CoreDNSDeployment,
		PolicyName:     coredns.AutoscalerName + "-replicas",
		ProbeName:      coredns.AutoscalerName + "-enforcement-probe",
		Labels: map[string]string{
			"k8s-app":                  coredns.AutoscalerName,
			channelsapi.LabelAddonName: coredns.ScalingAddonName,
			channelsapi.LabelManagedBy: "kops",
		},
	}
}

// Params are the fields the policy binds, with their values in spec and their Marked markers.
func Params(spec coredns.Spec) []confine.Param {
	m := Marked(spec)
	return []confine.Param{
		{Field: "spec.image", Value: spec.Image, Marker: m.Image},
		{Field: "spec.corefile", Value: spec.Corefile, Marker: m.Corefile},
		{Field: "spec.corefileChecksum", Value: spec.CorefileChecksum, Marker: m.CorefileChecksum},
		{Field: "spec.dnsIP", Value: spec.DNSIP, Marker: m.DNSIP},
		{Field: "spec.dnsDomain", Value: spec.DNSDomain, Marker: m.DNSDomain},
		{Field: "spec.version", Value: spec.Version, Marker: m.Version},
	}
}

// Marked is spec with every field replaced by a marker the renderer accepts and that appears
// nowhere else; the address keeps spec's IP family, so family-dependent output renders alike.
func Marked(spec coredns.Spec) coredns.Spec {
	ip := "192.0.2.53"
	if strings.Contains(spec.DNSIP, ":") {
		ip = "2001:db8::53"
	}
	const corefile = "# policy marker: spec.corefile\n"
	return coredns.Spec{
		Version:   "0.0.0-policy-marker",
		Image:     "policy-marker.invalid/coredns:marker",
		DNSDomain: "policy-marker.invalid",
		DNSIP:     ip,
		Corefile:  corefile,
		// The marker Corefile's own checksum: the renderer accepts only a matching one, and no
		// real Corefile has it.
		CorefileChecksum: coredns.CorefileChecksum(corefile),
	}
}
