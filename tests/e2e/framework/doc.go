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

// Package framework starts a real kube-apiserver (with etcd) for the e2e tests
// and hands out clients for the admin and for impersonated identities.
//
// The binaries come from hack/build-test-apiserver.sh; a test fails, never
// skips, when they are missing. Set KUBEBUILDER_ASSETS to use binaries from
// elsewhere, and KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true to see the
// server's logs.
//
// One server per test package is the cheap way (a start costs a few seconds):
//
//	var env *framework.Env
//
//	func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }
//
// Tests sharing a server should use their own namespaces and names.
//
// The server runs with envtest's flags: RBAC authorization, and the
// ServiceAccount admission plugin off (no controller-manager creates service
// accounts, so pods need not name an existing one). No controllers run: a
// Deployment gets no pods, a namespace being deleted stays Terminating.
//
// With Options.AuditDeletes (MainWith, NewWith) the server also writes an audit
// log of the delete requests it serves, which Env.DeleteLog reads in the order
// the server served them.
package framework
