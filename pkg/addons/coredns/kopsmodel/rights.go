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
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/confine"
)

type Right = confine.Right

const createWhy = "Create the managed objects when missing. Kubernetes cannot limit create by resourceNames (the name is not known when create is authorized), so this is namespace-wide; their updates and patches are limited by name, and they are never deleted."

// Rights are everything the operator may do: no RBAC, secrets, pods, wildcards or cluster-scoped
// rights; writes other than create are limited by name, and none is a delete.
func Rights() []Right {
	return append([]Right{
		right(coredns.WatchNamespace, "apps", []string{"deployments"}, []string{"get", "list", "watch"}, []string{coredns.CoreDNSDeployment},
			"Watch the CoreDNS Deployment for drift and health. The operator lists and watches with fieldSelector metadata.name, the only way Kubernetes authorizes a list or watch limited by name."),
		right(coredns.WatchNamespace, "", []string{"services"}, []string{"get", "list", "watch"}, []string{coredns.CoreDNSService},
			"Watch the kube-dns Service for drift, by name as above."),
		right(coredns.WatchNamespace, "", []string{"configmaps"}, []string{"get", "list", "watch"}, []string{coredns.CoreDNSConfigMap},
			"Watch the Corefile ConfigMap for drift, by name as above."),
		right(coredns.WatchNamespace, "", []string{"serviceaccounts"}, []string{"get", "list", "watch"}, []string{coredns.CoreDNSServiceAccount},
			"Watch the coredns ServiceAccount for drift, by name as above."),
		right(coredns.WatchNamespace, "apps", []string{"deployments"}, []string{"update", "patch"}, []string{coredns.CoreDNSDeployment},
			"Reconcile only the CoreDNS Deployment. Never delete: when the operator is turned off kops deletes the CoreDNS object orphaning what it made, so DNS outlives the operator."),
		right(coredns.WatchNamespace, "", []string{"services"}, []string{"update", "patch"}, []string{coredns.CoreDNSService},
			"Reconcile only the cluster DNS Service. Never delete: a new Service could take another cluster IP."),
		right(coredns.WatchNamespace, "", []string{"configmaps"}, []string{"update", "patch"}, []string{coredns.CoreDNSConfigMap},
			"Reconcile only the Corefile ConfigMap; never delete it, as above."),
		right(coredns.WatchNamespace, "", []string{"serviceaccounts"}, []string{"update", "patch"}, []string{coredns.CoreDNSServiceAccount},
			"Patch labels on the ServiceAccount kops pre-creates for CoreDNS; never delete it."),
		right(coredns.WatchNamespace, "apps", []string{"deployments"}, []string{"create"}, nil, createWhy),
		right(coredns.WatchNamespace, "", []string{"services", "configmaps", "serviceaccounts"}, []string{"create"}, nil, createWhy),
		right(coredns.WatchNamespace, coredns.CRDGroup, []string{coredns.CRDResource}, []string{"get", "list", "watch"}, []string{coredns.CoreDNSResource},
			"Read its instructions, the CoreDNS object kops creates, by name; read-only, so the operator cannot rewrite them."),
		right(coredns.WatchNamespace, coredns.CRDGroup, []string{coredns.CRDResource + "/status"}, []string{"get", "update", "patch"}, []string{coredns.CoreDNSResource},
			"Report progress and health on the status of the CoreDNS object kops creates."),
		right(coredns.WatchNamespace, "", []string{"events"}, []string{"create", "patch"}, nil,
			"Record events on the CoreDNS object and the objects it manages."),
		right(coredns.WatchNamespace, "events.k8s.io", []string{"events"}, []string{"create", "patch"}, nil,
			"Same events through the newer events API."),
	}, confine.OwnNamespaceRights(coredns.Names())...)
}

func right(namespace, group string, resources, verbs, names []string, why string) Right {
	return Right{Namespace: namespace, APIGroup: group, Resources: resources, Verbs: verbs, ResourceNames: names, Why: why}
}
