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

// Package kube2iam applies the kube2iam addon of podMetadataAccess mode Forward to a real API
// server and retires it when the mode changes; it proves kube2iam's rights by SubjectAccessReview
// and by real requests under a token of its ServiceAccount. It also proves how kops locks the
// default ServiceAccounts: one field applied over the controller-manager's account, released
// when the setting is turned off, and never deleted.
package kube2iam
