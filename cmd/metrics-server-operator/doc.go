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

// Command metrics-server-operator runs the metrics-server operator: it reconciles the MetricsServer
// object kube-system/metrics-server into the ServiceAccount, Service and Deployment metrics-server
// that kops's built-in addon renders (pkg/addons/metricsserver.Render), with rights limited to
// those objects by name; kops writes metrics-server's RBAC, APIService and budget itself
// (docs/adding-an-operator.md, docs/metrics-server.md). It is a binary of its own, not a mode of the
// CoreDNS operator's: each image then links one renderer and runs under one descriptor's rights.
package main
