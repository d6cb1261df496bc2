// Package app is the CoreDNS operator: it reconciles the addons.x-k8s.io/v1alpha1 CoreDNS object
// kube-system/coredns into the objects kops's built-in CoreDNS addon would render for it, and
// reports their health on the object's status.
//
// It is built on plain client-go (the dynamic client, cache informers, a work queue) and a Lease
// election of its own,
// rather than controller-runtime, for three reasons:
//   - Rights. Every read is one object by name: each informer lists and watches with
//     fieldSelector metadata.name=<name>, which is the only way Kubernetes authorizes a list or
//     watch limited by resourceNames. controller-runtime can scope its cache that way too, but its
//     client falls back to unscoped lists for anything not configured, so a slip costs a 403 at run
//     time; here there is no other read path.
//   - Weight. The main module does not depend on controller-runtime (tests/e2e does); the
//     operator needs five single-object watches, a queue with one key and a lease. Everything goes
//     through the dynamic client: the informers are client-go's cache package over it, the lease
//     election (lease.go) and the event sink (eventsink.go) are small files of their own, because
//     client-go's dynamic informer factory, leader election and typed event sink each link the
//     typed clientset of every API group (a 51 MB binary resident at about 37 MB; now 35 MB and
//     under 30 MB, TestOperatorLinksNoTypedClientset keeps it so).
//   - Memory. Each cache holds at most one object, however many ConfigMaps kube-system has.
//
// Objects are written with server-side apply under field manager FieldManager, forced: the
// operator owns the fields it renders, and takes them over from kops's built-in addon on handover.
package app
