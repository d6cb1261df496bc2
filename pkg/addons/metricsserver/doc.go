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

// Package metricsserver is metrics-server's folder: the MetricsServer object and the operator's
// runtime descriptor (api.go), and the one renderer of every mode (the built-in addon, client-side
// expansion, the operator), so that they cannot drift.
//
// What it renders is split by who may write it: Render gives what a namespaced operator may
// reconcile (ServiceAccount, Service and Deployment); RenderPrerequisites what kops writes itself
// in every mode, because an operator must never write RBAC or APIServices (plus the
// PodDisruptionBudget); RenderBuiltIn both. Only cluster.go knows the cluster spec; kopsmodel/ is
// what kops alone links.
package metricsserver
