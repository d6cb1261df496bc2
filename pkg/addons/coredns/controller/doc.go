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

// Package controller is the CoreDNS operator: it reconciles the addons.x-k8s.io/v1alpha1 CoreDNS
// object kube-system/coredns into the objects kops's built-in CoreDNS addon would render for it,
// and reports their health on the object's status. Only what is CoreDNS's is here (its Addon,
// facts and flags); the runtime every operator shares is pkg/operator/manager.
package controller
