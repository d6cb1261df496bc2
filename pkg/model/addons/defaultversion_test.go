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

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
)

// The built-in addon's default CoreDNS and the coredns package of every embedded channel are one
// version, for every Kubernetes version the channels serve: switching a cluster between the
// built-in addon and the operator, or between channels, never changes (or downgrades) its DNS.
func TestDefaultCoreDNSVersionIsTheChannels(t *testing.T) {
	assert.Equal(t, "1.14.2", coredns.DefaultVersion, "kops's current release ships CoreDNS 1.14.2: never default to less")
	assert.Equal(t, "registry.k8s.io/coredns/coredns:v1.14.2", coredns.DefaultImage)
	for _, name := range []string{channels.Stable, channels.Alpha} {
		l, err := channels.Load(name, nil)
		require.NoError(t, err)
		for _, k8s := range []string{"1.30.0", "1.33.0", "1.35.4"} {
			p, err := l.Package(corednsmodel.CoreDNSPackage, k8s)
			require.NoError(t, err, "%s, Kubernetes %s", name, k8s)
			assert.Equal(t, coredns.DefaultVersion, p.Version, "%s, Kubernetes %s", name, k8s)
			assert.Equal(t, coredns.DefaultImage, p.Image, "%s, Kubernetes %s", name, k8s)
		}
	}
}
