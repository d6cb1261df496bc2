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

package registry

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/model/addons/addonstest"
	"k8s.io/kops/tests/integration/golden"
)

func TestThrowawayOperatorThroughTheRegistry(t *testing.T) {
	registry := []*addons.Operator{addonstest.NodeLocalDNSOperator()}
	files, err := addonstest.Channel(registry, addonstest.NodeLocalDNSPackages())
	require.NoError(t, err)
	got := map[string]string{}
	for path, data := range files {
		got[path] = string(data)
	}
	golden.Check(t, "node-local-dns", got)

	channel, err := channelsapi.ParseAddons(files[addons.BootstrapChannelLocation])
	require.NoError(t, err)
	var names []string
	for _, a := range channel.Spec.Addons {
		names = append(names, a.Name)
		manifest, ok := files["addons/"+a.Manifest]
		require.True(t, ok, "the channel names %s, which kops writes", a.Manifest)
		_, err := kubemanifest.DecodeStrict(manifest, addons.KindsOf(registry))
		assert.NoError(t, err, a.Name)
	}
	assert.Equal(t, []string{"serviceaccount-defaults.addons.k8s.io", "operator.node-local-dns.addons.x-k8s.io", addonstest.NodeLocalDNSResourceAddon}, names,
		"the default accounts locked first, then the operator, then its instructions")
	assert.Empty(t, channel.Spec.TakeOver, "no built-in addon to take over")
}
