// Package app is the CoreDNS operator: it reconciles the addons.x-k8s.io/v1alpha1 CoreDNS object
// kube-system/coredns into the objects kops's built-in CoreDNS addon would render for it, and
// reports their health on the object's status. What is CoreDNS's is here: its Addon (the renderer,
// the Corefile check, the Service's address kept), its facts and its flags; the rest (informers,
// applies, status, events, the lease, probes) is the runtime every operator of kops shares,
// pkg/operators/manager.
package app
