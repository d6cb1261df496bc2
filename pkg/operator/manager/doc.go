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

// Package manager is the runtime every addon operator of kops runs on: given an operator's
// descriptor and how it renders its custom resource (Addon), it reconciles the one custom resource
// into the managed objects kops would render for it, and reports their health on the resource's
// status. An operator's binary is its Addon, its own flags and this package.
//
// It is built on plain client-go (the dynamic client, cache informers, a work queue) and a Lease
// election of its own, rather than controller-runtime, for three reasons:
//   - Rights. Every read is one object by name: each informer lists and watches with
//     fieldSelector metadata.name=<name>, which is the only way Kubernetes authorizes a list or
//     watch limited by resourceNames. controller-runtime can scope its cache that way too, but its
//     client falls back to unscoped lists for anything not configured, so a slip costs a 403 at run
//     time; here there is no other read path.
//   - Weight. The main module does not depend on controller-runtime (tests/e2e does); an operator
//     needs a few single-object watches, a queue with one key and a lease. Everything goes through
//     the dynamic client: the informers are client-go's cache package over it, the lease election
//     (lease.go) and the event sink (eventsink.go) are small files of their own, because client-go's
//     dynamic informer factory, leader election and typed event sink each link the typed clientset
//     of every API group, which would make each operator's binary and resident memory much larger
//     (docs/performance.md); a test of cmd/coredns-operator keeps it out.
//   - Memory. Each cache holds at most one object, however many objects the namespace has.
//
// Objects are written with server-side apply under the operator's field manager (its Deployment's
// name), forced: the operator owns the fields it renders, and takes them over from kops's built-in
// addon on handover.
package manager
