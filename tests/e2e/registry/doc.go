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

// Package registry applies, with channels, what kops writes for an operator that is only data (a
// throwaway DaemonSet operator in a registry of its own, addonstest.NodeLocalDNSOperator: the files
// tests/integration/registry pins) to a real API server, and then acts as the operator: it may
// write exactly the objects its renderer gives, and its admission policies and Roles refuse the
// rest. The registry, the builder, the channel and the policy, end to end, with no code of the
// operator's own.
package registry
