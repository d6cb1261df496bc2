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

// Package corednsoperator describes how kops runs the cluster-addons CoreDNS operator, and in
// particular what the operator is allowed to do. The operator's rights are kept as data (Rights)
// so that the RBAC objects, the documentation table and the tests all derive from one list and
// cannot drift apart.
package kopsmodel

import "k8s.io/kops/pkg/operator"

// Names are the operator's names, by kops's convention (operator.NamesOf): it runs as
// coredns-operator in its own namespace, coredns-operator-system, so that its leader-election lease
// and events are not mixed with kube-system and its write rights there stay small, and ships as
// addon operator.coredns.addons.x-k8s.io.
func Names() operator.Names { return operator.NamesOf("coredns") }

// WatchNamespace is where the CoreDNS objects live: the CoreDNS custom resource and everything
// the operator creates from it.
const WatchNamespace = "kube-system"

// The CoreDNS custom resource the operator reconciles.
const (
	CRDGroup    = "addons.x-k8s.io"
	CRDResource = "corednses"
	CRDName     = CRDResource + "." + CRDGroup
)

// The objects the operator manages in WatchNamespace. kops pre-creates ServiceAccount coredns and
// the system:coredns ClusterRole/ClusterRoleBinding, so the operator never needs RBAC rights.
const (
	CoreDNSDeployment     = "coredns"
	CoreDNSService        = "kube-dns"
	CoreDNSConfigMap      = "coredns"
	CoreDNSServiceAccount = "coredns"
	// CoreDNSResource is the name kops gives the CoreDNS object, the operator's instructions.
	CoreDNSResource = "coredns"
)
