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

// Package kopsmodel is metrics-server as kops's model builders see it: what confines its operator
// (the rights table, the CRD's validations, the replica bound, the prerequisites kops writes for
// its pods), the MetricsServer object kops writes, and metrics-server's line of the operator
// registry. The operator binary does not link it.
package kopsmodel
