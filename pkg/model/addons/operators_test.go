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

package addons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every entry of the registry is complete and valid, and no two builders claim the same addon: an
// entry missing a hook or naming another's addon fails here, not at a user's update.
func TestOperatorsRegistry(t *testing.T) {
	owner := map[string]int{}
	for i, b := range DefaultBuilders() {
		for _, name := range b.Owns() {
			if prev, seen := owner[name]; seen {
				assert.Failf(t, "addon claimed twice", "%s: builders %d and %d", name, prev, i)
			}
			owner[name] = i
		}
	}
	require.NotEmpty(t, Operators())
	for _, o := range Operators() {
		t.Run(o.Descriptor.AddonName, func(t *testing.T) {
			require.NoError(t, o.Descriptor.Validate())
			assert.Regexp(t, `^\./cmd/[a-z0-9-]+$`, o.Binary)
			assert.NotEmpty(t, o.ResourceAddon)
			assert.NotNil(t, o.Mode)
			assert.NotNil(t, o.Instructions)
			assert.Equal(t, len(o.BeforeNames) > 0, o.Before != nil, "Before and BeforeNames go together")
		})
	}
	assert.Nil(t, OperatorOf("coredns.addons.k8s.io"), "a built-in addon is no operator")
}
