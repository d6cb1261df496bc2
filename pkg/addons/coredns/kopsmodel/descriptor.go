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

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/confine"
)

// MaxReplicas bounds the CoreDNS Deployment's replica count. kops's built-in addon leaves the count
// to its autoscaler (one replica per 16 nodes); 50 replicas serve an 800-node cluster, far beyond
// what this experimental mode is used for, while keeping a runaway or hostile count from filling
// the nodes.
const MaxReplicas = 50

// Descriptor is the CoreDNS operator as kops confines it: everything that confines it is generated
// from this value by package confine. It is built afresh on each call, so no caller can change
// another's.
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

// Params are the CoreDNS object's fields the policy binds, with their values in spec and a marker
// of each (Marked): the image, the Corefile and the Service's address flow into what the operator
// writes; the version and domain are bound too, wherever they would flow.
func Params(spec coredns.Spec) []confine.Param {
	m := Marked(spec)
	return []confine.Param{
		{Field: "spec.image", Value: spec.Image, Marker: m.Image},
		{Field: "spec.corefile", Value: spec.Corefile, Marker: m.Corefile},
		{Field: "spec.dnsIP", Value: spec.DNSIP, Marker: m.DNSIP},
		{Field: "spec.dnsDomain", Value: spec.DNSDomain, Marker: m.DNSDomain},
		{Field: "spec.version", Value: spec.Version, Marker: m.Version},
	}
}

// Marked is spec with every field replaced by a marker that the renderer accepts and that appears
// nowhere else: the address is a documentation address of the same family, so that what depends on
// the family renders alike.
func Marked(spec coredns.Spec) coredns.Spec {
	ip := "192.0.2.53"
	if strings.Contains(spec.DNSIP, ":") {
		ip = "2001:db8::53"
	}
	return coredns.Spec{
		Version:   "0.0.0-policy-marker",
		Image:     "policy-marker.invalid/coredns:marker",
		DNSDomain: "policy-marker.invalid",
		DNSIP:     ip,
		Corefile:  "# policy marker: spec.corefile\n",
	}
}
