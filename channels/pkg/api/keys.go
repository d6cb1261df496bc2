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

// The keys kops writes on an addon's objects and namespaces and that channels, kops validate and
// the operators' admission policies read, defined once so that writer and readers cannot drift.

const (
	addonKeyPrefix    = "addon.kops.k8s.io/"
	channelsKeyPrefix = "channels.kops.k8s.io/"
	// RecordKeyPrefix plus an addon's name is its record's annotation key, as in kops, so an addon
	// name must be valid as the name part of a qualified key.
	RecordKeyPrefix = "addons.k8s.io/"
)

// ControlKeyPrefixes are the prefixes of every label and annotation kops and channels steer with;
// a package may not set them.
func ControlKeyPrefixes() []string {
	return []string{addonKeyPrefix, channelsKeyPrefix, RecordKeyPrefix}
}

const (
	// LabelAddonName names an object's addon; pruning and retiring skip objects without it.
	LabelAddonName = addonKeyPrefix + "name"
	// LabelKopsAddon is the label kops's addon templates set and its channel selects by.
	LabelKopsAddon = "k8s-addon"
	LabelManagedBy = "app.kubernetes.io/managed-by"
	// AnnotationHandoverTo names the addon that takes an object over when its own leaves the
	// channel: the object is relabelled instead of deleted, so its service never stops.
	AnnotationHandoverTo = addonKeyPrefix + "handover-to"
)

// EnforcementProbeAnnotation, on a ValidatingAdmissionPolicyBinding, makes channels prove the
// binding enforced before it applies the later phases the policy confines: it dry-run creates
// the probe object as the probe's user until the server says this binding denied it. It is an
// annotation so that kops's channels simply applies the same manifests.
const EnforcementProbeAnnotation = channelsKeyPrefix + "enforcement-probe"

// LabelEnforcementProbe marks the object an enforcement probe sends.
const LabelEnforcementProbe = EnforcementProbeAnnotation
