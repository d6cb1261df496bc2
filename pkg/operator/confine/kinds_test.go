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

package confine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/operator"
)

// A managed kind whose free keys have no bound is refused, so nothing others own goes unbounded.
func TestFreeKeysNeedABound(t *testing.T) {
	d := &Descriptor{Descriptor: operator.Descriptor{Managed: []operator.Managed{{Kind: "Deployment", Name: "a"}}}, MaxReplicas: 1}
	unbounded := "Deployment leaves map[spec:[replicas]] to others and has no bound on them"
	err := d.Validate()
	require.Error(t, err, "the descriptor names nothing else")
	assert.NotContains(t, err.Error(), unbounded)

	deployment := bounds["Deployment"]
	delete(bounds, "Deployment")
	t.Cleanup(func() { bounds["Deployment"] = deployment })
	err = d.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), unbounded)
}
