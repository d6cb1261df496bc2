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

// Package operator applies the addons of CoreDNS-through-its-operator to a real API server and
// proves the least-privilege claims with the server's own authorizer and admission: a
// SubjectAccessReview matrix, real requests under the operator's identity, and the admission policy
// that confines what RBAC cannot.
package operator
