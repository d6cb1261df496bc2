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

package channels

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// The channels command, as a user runs it: a kubeconfig file and a channel in a file:// store.
func TestChannelsCommand(t *testing.T) {
	dir := t.TempDir()
	binary := kopsenv.Build(t, "./cmd/channels")
	kubeconfig := kopsenv.Kubeconfig(t, env)

	s := kopsenv.NewStoreAt(t, "clusteraddons", "file://"+filepath.Join(dir, "state"))
	location := s.Update(t, "ClusterAddons")
	require.True(t, strings.HasPrefix(location, "file://"))

	channels := func(args ...string) (string, error) {
		stdout, stderr, err := kopsenv.Exec(binary, nil, args...)
		return stdout + stderr, err
	}
	out2, err := channels("apply", "channel", location, "--kubeconfig", kubeconfig)
	require.NoError(t, err, out2)
	assert.Contains(t, out2, "cluster-addons.kops.k8s.io (default)")
	assert.Contains(t, out2, "would apply")
	assert.Contains(t, out2, "Must specify --yes to apply changes")

	out2, err = channels("apply", "channel", location, "--kubeconfig", kubeconfig, "--yes")
	require.NoError(t, err, out2)
	assert.Contains(t, out2, "applied")

	// A plain path works too, and a second run has nothing to do.
	out2, err = channels("apply", "channel", strings.TrimPrefix(location, "file://"), "--kubeconfig", kubeconfig, "--yes")
	require.NoError(t, err, out2)
	assert.NotContains(t, out2, "applied ")
	assert.Contains(t, out2, "unchanged")

	out2, err = channels("apply", "channel", location, "--kubeconfig", filepath.Join(dir, "missing"))
	assert.Error(t, err)
	assert.Contains(t, out2, "Error: kubeconfig "+filepath.Join(dir, "missing")+" does not exist\n")
}
