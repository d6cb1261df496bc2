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

package api

// The keys kops writes on an addon's objects and channels reads from them (as do kops validate
// and the operators' admission policies): one definition, so that the writer and the readers
// cannot drift apart.
const (
	// LabelAddonName names the addon an object belongs to; pruning and retiring consider only the
	// objects of an addon's inventory that still carry it.
	LabelAddonName = "addon.kops.k8s.io/name"
	// LabelManagedBy says kops made the object.
	LabelManagedBy = "app.kubernetes.io/managed-by"
	// AnnotationHandoverTo names the addon that takes an object over when its own addon leaves the
	// channel (CoreDNS's Deployment, handed to the operator that reconciles it): the object is
	// relabelled instead of deleted, so the service it provides never stops.
	AnnotationHandoverTo = "addon.kops.k8s.io/handover-to"
)
