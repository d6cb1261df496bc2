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

// The keys kops writes on an addon's objects and namespaces, and channels, kops validate and the
// operators' admission policies read: one definition, so that writer and readers cannot drift.

// The prefixes of the keys through which kops and channels steer what happens to an object.
const (
	addonKeyPrefix    = "addon.kops.k8s.io/"
	channelsKeyPrefix = "channels.kops.k8s.io/"
	// RecordKeyPrefix is followed by an addon's name to form the annotation key of its record (kops's
	// "addons.k8s.io/<name>"), so an addon name must be valid as the name part of a qualified key.
	RecordKeyPrefix = "addons.k8s.io/"
)

// ControlKeyPrefixes are the prefixes of every label and annotation kops and channels steer with;
// they are kops's to set, never a package's.
func ControlKeyPrefixes() []string {
	return []string{addonKeyPrefix, channelsKeyPrefix, RecordKeyPrefix}
}

const (
	// LabelAddonName names the addon an object belongs to; pruning and retiring consider only the
	// objects of an addon's inventory that still carry it.
	LabelAddonName = addonKeyPrefix + "name"
	// LabelKopsAddon is the label kops's own addon templates give their objects (k8s-addon:
	// <addon>), and the selector kops writes for an addon in the channel.
	LabelKopsAddon = "k8s-addon"
	// LabelManagedBy says kops made the object.
	LabelManagedBy = "app.kubernetes.io/managed-by"
	// AnnotationHandoverTo names the addon that takes an object over when its own addon leaves the
	// channel (CoreDNS's Deployment, handed to the operator that reconciles it): the object is
	// relabelled instead of deleted, so the service it provides never stops.
	AnnotationHandoverTo = addonKeyPrefix + "handover-to"
)

// EnforcementProbeAnnotation, on a ValidatingAdmissionPolicyBinding of an addon's manifest, asks
// channels to prove the binding enforced before it applies anything of a later phase (the
// RoleBindings and workloads that the policy confines): channels sends the probe object as a
// server-side dry-run create, acting as the probe's user, until the API server answers that this
// policy and binding denied it. An annotation, not a channel field, so kops's own channels reads
// the same manifests and simply applies them.
const EnforcementProbeAnnotation = channelsKeyPrefix + "enforcement-probe"

// LabelEnforcementProbe marks the object an enforcement probe sends (a dry run, never stored).
const LabelEnforcementProbe = EnforcementProbeAnnotation
