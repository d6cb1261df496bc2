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

package operator

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

var (
	setupOnce sync.Once
	applied   *kopsenv.Applied
)

// setup applies, once for the package, the operator addons of a cluster with the channel's list
// reversed: the CoreDNS object before the CRD that defines it, the worst order there is.
func setup(t *testing.T) *kopsenv.Applied {
	setupOnce.Do(func() {
		s := kopsenv.NewStore(t, "addon-operators")
		location := s.Update(t, "ClusterAddons,UseAddonOperators")
		p, err := vfs.ParsePath(location, s.Mem)
		require.NoError(t, err)
		data, err := p.ReadFile()
		require.NoError(t, err)
		channel, err := api.ParseAddons(data)
		require.NoError(t, err)
		addons := channel.Spec.Addons
		for i, j := 0, len(addons)-1; i < j; i, j = i+1, j-1 {
			addons[i], addons[j] = addons[j], addons[i]
		}
		reversed, err := channel.Encode()
		require.NoError(t, err)
		worst := strings.TrimSuffix(location, "bootstrap-channel.yaml") + "worst-order-channel.yaml"
		wp, err := vfs.ParsePath(worst, s.Mem)
		require.NoError(t, err)
		require.NoError(t, wp.WriteFile(reversed))
		applied = kopsenv.Apply(t, env, worst, s.Mem, true)
	})
	require.NotNil(t, applied, "the package's setup failed in an earlier test")
	return applied
}
