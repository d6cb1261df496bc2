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

// Package apply puts a bootstrap channel's addons on a cluster: each addon whose recorded version
// differs is server-side applied, in an order that cannot race, and recorded on its namespace in
// kops's annotation format, so kops's channels and this one read each other's records.
package apply

import (
	"fmt"

	"k8s.io/kops/channels/pkg/api"
)

// SystemGeneration is bumped when this tool changes how it applies, forcing a re-apply.
const SystemGeneration = 1

// reasonToApply says why an addon must be applied over what is recorded, or "" when it need not be.
// A record without our inventory (kops's channels, an older channels) is taken over: applied over
// once, whatever its version, so that the addon's objects are known and can be retired or pruned
// later.
func reasonToApply(recorded *api.ChannelVersion, id, hash, fieldManager string) string {
	switch {
	case recorded == nil:
		return "new: the cluster does not run it yet"
	case !recorded.Ours(fieldManager):
		return "taking over: another tool recorded it, without an inventory of " + fieldManager + "'s"
	case recorded.ID != id:
		return fmt.Sprintf("its id changed from %q to %q", recorded.ID, id)
	case recorded.ManifestHash != hash:
		return "its manifest changed"
	case recorded.SystemGeneration < SystemGeneration:
		return "an older channels applied it"
	}
	return ""
}
