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

package validation

import (
	"testing"

	"k8s.io/kops/pkg/apis/kops"
)

// kops accepts an enabled metrics-server with insecure: true and any image (tests/kops-specs
// metrics-server.yaml), and the secure mode (insecure unset or false) only with spec.certManager
// enabled (metrics-server-secure.yaml, metrics-server-secure-unmanaged-cert-manager.yaml): kops's
// validateMetricsServer, Forbidden at spec.metricsServer.insecure.
func TestValidateMetricsServer(t *testing.T) {
	on, off := ptr(true), ptr(false)
	ms := func(m kops.MetricsServerConfig) func(c *kops.Cluster) {
		return func(c *kops.Cluster) { c.Spec.MetricsServer = &m }
	}
	const p = "spec.metricsServer."
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"enabled, insecure", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on}), nil},
		{"enabled with a pinned mirror image", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on,
			Image: "registry.example.com/metrics-server/metrics-server:v0.8.0"}), nil},
		{"enabled with a digest", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on,
			Image: "registry.k8s.io/metrics-server/metrics-server@sha256:" + sha256Hex}), nil},
		{"disabled needs no insecure", ms(kops.MetricsServerConfig{Enabled: off}), nil},
		{"unset enabled is disabled", ms(kops.MetricsServerConfig{Insecure: off}), nil},
		{"enabled, insecure unset", ms(kops.MetricsServerConfig{Enabled: on}),
			[]want{{forbidden, p + "insecure", "Secure metrics server requires that cert manager is enabled"}}},
		{"enabled, secure", ms(kops.MetricsServerConfig{Enabled: on, Insecure: off}),
			[]want{{forbidden, p + "insecure", "spec.certManager.enabled"}}},
		{"secure with cert-manager", withCertManager(on, nil, ms(kops.MetricsServerConfig{Enabled: on, Insecure: off})), nil},
		{"insecure unset with cert-manager", withCertManager(on, nil, ms(kops.MetricsServerConfig{Enabled: on})), nil},
		{"secure with cert-manager kops does not manage", withCertManager(on, off, ms(kops.MetricsServerConfig{Enabled: on})), nil},
		{"secure with cert-manager disabled", withCertManager(off, nil, ms(kops.MetricsServerConfig{Enabled: on})),
			[]want{{forbidden, p + "insecure", ""}}},
		{"cert-manager alone", withCertManager(on, nil, func(*kops.Cluster) {}), nil},
		{"disabled secure needs no cert-manager", ms(kops.MetricsServerConfig{Enabled: off, Insecure: off}), nil},
		{"image latest", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, Image: "registry.k8s.io/metrics-server/metrics-server:latest"}),
			[]want{{invalid, p + "image", "uses the mutable tag latest; pin it"}}},
		{"image without tag", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, Image: "registry.example.com:5000/metrics-server"}),
			[]want{{invalid, p + "image", "has no tag; pin it with a version tag or a digest"}}},
		{"image with scheme", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, Image: "https://registry.k8s.io/metrics-server:v0.8.0"}),
			[]want{{invalid, p + "image", "scheme"}}},
		{"bad image checked while disabled", ms(kops.MetricsServerConfig{Image: "metrics server:v1"}),
			[]want{{invalid, p + "image", "whitespace"}}},
		{"client-side mode", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, OperatorMode: kops.OperatorModeClientSide}), nil},
		{"server-side mode", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, OperatorMode: kops.OperatorModeServerSide}), nil},
		{"operatorMode near miss", ms(kops.MetricsServerConfig{Enabled: on, Insecure: on, OperatorMode: "client-side"}),
			[]want{{invalid, p + "operatorMode", `did you mean "ClientSide"?`}}},
		{"operatorMode unknown, checked while disabled", ms(kops.MetricsServerConfig{OperatorMode: "Operator"}),
			[]want{{notSupported, p + "operatorMode", `"ClientSide"`}}},
		{"every problem at once", ms(kops.MetricsServerConfig{Enabled: on, Image: "m:latest"}), []want{
			{forbidden, p + "insecure", ""}, {invalid, p + "image", "latest"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}

func withCertManager(enabled, managed *bool, then func(c *kops.Cluster)) func(c *kops.Cluster) {
	return func(c *kops.Cluster) {
		then(c)
		c.Spec.CertManager = &kops.CertManagerConfig{Enabled: enabled, Managed: managed}
	}
}

const sha256Hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
