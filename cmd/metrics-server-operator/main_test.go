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

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/addons/metricsserver"
)

// The flags are checked before any connection is attempted.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"other watch namespace", []string{"--watch-namespace=default"}, "--watch-namespace=default: the operator manages metrics-server in kube-system only"},
		{"CoreDNS's facts", []string{`--cluster-facts={}`}, "flag provided but not defined: -cluster-facts"},
		{"stray argument", []string{"--leader-elect=false", "extra"}, `unexpected arguments ["extra"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The operator applies exactly the managed objects of kops's rendering, in apply order, and
// refuses the secure mode, which its CRD does not admit and kops keeps built in.
func TestAddonObjects(t *testing.T) {
	a := addon()
	spec := metricsserver.Spec{Version: metricsserver.DefaultVersion, Image: metricsserver.DefaultImage, Insecure: true}
	objects, err := a.Objects(spec)
	require.NoError(t, err)
	var keys []string
	for _, o := range objects {
		keys = append(keys, o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName())
		assert.NotContains(t, o.GetLabels(), "addon.kops.k8s.io/name", "channels' label is left to channels")
	}
	assert.Equal(t, []string{"ServiceAccount/kube-system/metrics-server", "Service/kube-system/metrics-server", "Deployment/kube-system/metrics-server"}, keys)
	assert.Equal(t, "metrics-server-operator", a.FieldManager())

	spec.Insecure = false
	_, err = a.Objects(spec)
	assert.ErrorContains(t, err, "the operator runs only the insecure mode")
}
