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

package operatortest

import (
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
)

const NodeLocalDNSImage = "registry.k8s.io/dns/k8s-dns-node-cache:1.26.4"

const nodeLocalDNSMarker = "marker.invalid/node-local-dns:marker"

// NodeLocalDNS is a throwaway operator, data only, that manages a DaemonSet shaped like
// node-local-dns's, to show the generators confine a DaemonSet as they do a Deployment. It stays off
// the host's network so that adding it is one of the attacks.
func NodeLocalDNS() *confine.Descriptor {
	const ns, watch, name = "node-local-dns-operator-system", "kube-system", "node-local-dns"
	reconcile := []string{"get", "list", "watch", "update", "patch"}
	return &confine.Descriptor{Descriptor: operator.Descriptor{
		Subject:        "node-local-dns",
		Names:          operator.NamesOf("node-local-dns"),
		WatchNamespace: watch,
		CRD: operator.CRD{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "nodelocaldnses", Kind: "NodeLocalDNS",
			Type: reflect.TypeOf(NodeLocalDNSResource{})},
		Instructions: name,
		Managed: []operator.Managed{
			{Kind: "DaemonSet", Name: name},
			{Kind: "ConfigMap", Name: name},
			{Kind: "ServiceAccount", Name: name},
		},
	},
		MaxReplicas: 1,
		Rights: []confine.Right{
			{Namespace: watch, APIGroup: "apps", Resources: []string{"daemonsets"}, Verbs: reconcile, ResourceNames: []string{name}, Why: "Reconcile the node-local-dns DaemonSet."},
			{Namespace: watch, APIGroup: "", Resources: []string{"configmaps", "serviceaccounts"}, Verbs: reconcile, ResourceNames: []string{name}, Why: "Reconcile its ConfigMap and ServiceAccount."},
			{Namespace: watch, APIGroup: "apps", Resources: []string{"daemonsets"}, Verbs: []string{"create"}, Why: "Create it when missing."},
			{Namespace: watch, APIGroup: "", Resources: []string{"configmaps", "serviceaccounts"}, Verbs: []string{"create"}, Why: "Create them when missing."},
			{Namespace: watch, APIGroup: "addons.x-k8s.io", Resources: []string{"nodelocaldnses"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{name}, Why: "Read its instructions."},
			{Namespace: ns, APIGroup: "coordination.k8s.io", Resources: []string{"leases"}, Verbs: []string{"create"}, Why: "Create its lease."},
			{Namespace: ns, APIGroup: "coordination.k8s.io", Resources: []string{"leases"}, Verbs: []string{"get", "update", "patch"}, ResourceNames: []string{"node-local-dns-operator-leader"}, Why: "Renew its lease."},
		},
		Pod: confine.PodAllowance{PriorityClassName: "system-cluster-critical", NodeSelector: map[string]string{"kubernetes.io/os": "linux"}},
	}
}

type NodeLocalDNSResource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Image string `json:"image"`
	} `json:"spec"`
}

func NodeLocalDNSInstructions() map[string]interface{} {
	d := NodeLocalDNS()
	return map[string]interface{}{
		"apiVersion": d.CRD.APIVersion(), "kind": d.CRD.Kind,
		"metadata": map[string]interface{}{"name": d.Instructions, "namespace": d.WatchNamespace},
		"spec":     map[string]interface{}{"image": NodeLocalDNSImage},
	}
}

// NodeLocalDNSManifest writes out every field the API server defaults: the exact match compares
// what the server holds.
func NodeLocalDNSManifest() []byte { return nodeLocalDNSManifest(NodeLocalDNSImage) }

func NodeLocalDNSScope() (*confine.Scope, error) {
	rendered, marked, params := NodeLocalDNSRendering()
	return NodeLocalDNS().ScopeFromManifest(rendered, marked, params)
}

// NodeLocalDNSRendering returns the manifest, its rendering with the image marked, and the params.
func NodeLocalDNSRendering() (rendered, marked []byte, params []confine.Param) {
	return NodeLocalDNSManifest(), nodeLocalDNSManifest(nodeLocalDNSMarker),
		[]confine.Param{{Field: "spec.image", Value: NodeLocalDNSImage, Marker: nodeLocalDNSMarker}}
}

func nodeLocalDNSManifest(image string) []byte {
	return []byte(strings.ReplaceAll(nodeLocalDNSTemplate, "IMAGE", image))
}

const nodeLocalDNSTemplate = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: node-local-dns
  namespace: kube-system
  labels: {k8s-app: node-local-dns, addon.kops.k8s.io/name: node-local-dns.addons.x-k8s.io}
automountServiceAccountToken: false
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: node-local-dns
  namespace: kube-system
  labels: {k8s-app: node-local-dns, addon.kops.k8s.io/name: node-local-dns.addons.x-k8s.io}
data:
  Corefile: |
    cluster.local:53 {
        cache 30
        forward . 100.64.0.10
    }
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-local-dns
  namespace: kube-system
  labels: {k8s-app: node-local-dns, addon.kops.k8s.io/name: node-local-dns.addons.x-k8s.io}
spec:
  revisionHistoryLimit: 10
  selector:
    matchLabels: {k8s-app: node-local-dns}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 0, maxUnavailable: 10%}
  template:
    metadata:
      labels: {k8s-app: node-local-dns}
    spec:
      serviceAccountName: node-local-dns
      serviceAccount: node-local-dns
      automountServiceAccountToken: false
      priorityClassName: system-node-critical
      dnsPolicy: Default
      restartPolicy: Always
      schedulerName: default-scheduler
      terminationGracePeriodSeconds: 30
      nodeSelector: {kubernetes.io/os: linux}
      tolerations:
      - {key: CriticalAddonsOnly, operator: Exists}
      securityContext:
        seccompProfile: {type: RuntimeDefault}
      containers:
      - name: node-cache
        image: IMAGE
        imagePullPolicy: IfNotPresent
        args: [-localip, 169.254.20.10, -conf, /etc/Corefile, -setupinterface=false, -setupiptables=false, -health-port, "8080"]
        ports:
        - {name: dns, containerPort: 53, protocol: UDP}
        - {name: dns-tcp, containerPort: 53, protocol: TCP}
        - {name: metrics, containerPort: 9253, protocol: TCP}
        livenessProbe:
          httpGet: {path: /health, port: 8080, scheme: HTTP}
          initialDelaySeconds: 60
          timeoutSeconds: 5
          periodSeconds: 10
          successThreshold: 1
          failureThreshold: 3
        resources:
          requests: {cpu: 25m, memory: 5Mi}
        securityContext:
          allowPrivilegeEscalation: false
          capabilities: {add: [NET_ADMIN], drop: [ALL]}
          readOnlyRootFilesystem: true
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        volumeMounts:
        - {name: xtables-lock, mountPath: /run/xtables.lock}
        - {name: config-volume, mountPath: /etc/coredns, readOnly: true}
      volumes:
      - name: xtables-lock
        hostPath: {path: /run/xtables.lock, type: FileOrCreate}
      - name: config-volume
        configMap:
          name: node-local-dns
          defaultMode: 420
          items: [{key: Corefile, path: Corefile.base}]
`
