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
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/upup/pkg/fi/cloudup"
)

type assetList struct {
	Images []cloudup.ImageAsset `json:"images"`
}

func TestGetAssets(t *testing.T) {
	const (
		operatorCR  = "addons/coredns.addons.x-k8s.io/1.14.2.yaml CoreDNS/kube-system/coredns spec.image"
		operatorDep = "addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml Deployment/coredns-operator-system/coredns-operator spec.template.spec.containers[0].image"
		builtInDep  = "addons/coredns.addons.k8s.io/k8s-1.12.yaml Deployment/kube-system/coredns spec.template.spec.containers[0].image"
		autoscaler  = "addons/coredns.addons.k8s.io/k8s-1.12.yaml Deployment/kube-system/coredns-autoscaler spec.template.spec.containers[0].image"
		// With the operator, kops runs the autoscaler itself, as an addon of its own.
		operatorAutoscaler = "addons/coredns-scaling.addons.k8s.io/k8s-1.12.yaml Deployment/kube-system/coredns-autoscaler spec.template.spec.containers[0].image"
		metricsServer      = "addons/metrics-server.addons.k8s.io/k8s-1.11.yaml Deployment/kube-system/metrics-server spec.template.spec.containers[0].image"
		metricsServerCR    = "addons/metrics-server.addons.x-k8s.io/0.8.0.yaml MetricsServer/kube-system/metrics-server spec.image"
		metricsServerOpDep = "addons/operator.metrics-server.addons.x-k8s.io/0.1.0.yaml Deployment/metrics-server-operator-system/metrics-server-operator spec.template.spec.containers[0].image"
	)
	mirror := func(image string) string { return "registry.example.com/mirror/" + image }
	tests := []struct {
		name          string
		flags         string
		mirror        bool
		metricsServer bool
		want          []cloudup.ImageAsset
	}{
		{
			name: "built-in CoreDNS",
			want: []cloudup.ImageAsset{
				{Canonical: "registry.k8s.io/coredns/coredns:v1.14.2", Download: "registry.k8s.io/coredns/coredns:v1.14.2", UsedBy: []string{builtInDep}},
				{Canonical: "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0", Download: "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0", UsedBy: []string{autoscaler}},
			},
		},
		{
			name:   "operator and the CoreDNS image it deploys, remapped to a mirror",
			flags:  "ClusterAddons,UseAddonOperators",
			mirror: true,
			want: []cloudup.ImageAsset{
				{Canonical: "kops-addons/coredns-operator:v0.2.0", Download: mirror("kops-addons/coredns-operator:v0.2.0"), UsedBy: []string{operatorDep}},
				// The built-in addon is written too, for the takeover of a cluster kops's channels
				// managed, and runs these images until it is retired.
				{Canonical: "registry.k8s.io/coredns/coredns:v1.14.2", Download: mirror("coredns/coredns:v1.14.2"), UsedBy: []string{builtInDep, operatorCR}},
				{Canonical: "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0", Download: mirror("cpa/cluster-proportional-autoscaler:v1.9.0"), UsedBy: []string{operatorAutoscaler, autoscaler}},
			},
		},
		{
			name:          "metrics-server, remapped to a mirror",
			mirror:        true,
			metricsServer: true,
			want: []cloudup.ImageAsset{
				{Canonical: "registry.k8s.io/coredns/coredns:v1.14.2", Download: mirror("coredns/coredns:v1.14.2"), UsedBy: []string{builtInDep}},
				{Canonical: "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0", Download: mirror("cpa/cluster-proportional-autoscaler:v1.9.0"), UsedBy: []string{autoscaler}},
				{Canonical: "registry.k8s.io/metrics-server/metrics-server:v0.8.0", Download: mirror("metrics-server/metrics-server:v0.8.0"), UsedBy: []string{metricsServer}},
			},
		},
		{
			name:          "both operators, and the metrics-server image its operator deploys, remapped to a mirror",
			flags:         "ClusterAddons,UseAddonOperators",
			mirror:        true,
			metricsServer: true,
			want: []cloudup.ImageAsset{
				{Canonical: "kops-addons/coredns-operator:v0.2.0", Download: mirror("kops-addons/coredns-operator:v0.2.0"), UsedBy: []string{operatorDep}},
				{Canonical: "kops-addons/metrics-server-operator:v0.1.0", Download: mirror("kops-addons/metrics-server-operator:v0.1.0"), UsedBy: []string{metricsServerOpDep}},
				{Canonical: "registry.k8s.io/coredns/coredns:v1.14.2", Download: mirror("coredns/coredns:v1.14.2"), UsedBy: []string{builtInDep, operatorCR}},
				{Canonical: "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0", Download: mirror("cpa/cluster-proportional-autoscaler:v1.9.0"), UsedBy: []string{operatorAutoscaler, autoscaler}},
				// The built-in addon is the takeover copy here, as CoreDNS's is.
				{Canonical: "registry.k8s.io/metrics-server/metrics-server:v0.8.0", Download: mirror("metrics-server/metrics-server:v0.8.0"), UsedBy: []string{metricsServer, metricsServerCR}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = tt.flags
			c.mustRun("create", "cluster", "assets.k8s.local", "--zones", "us-east-2a")
			if tt.mirror {
				c.editor(`s/^  kubernetesVersion:/  assets:\n    containerRegistry: registry.example.com\/mirror\n  kubernetesVersion:/`)
				c.mustRun("edit", "cluster", "assets.k8s.local")
			}
			if tt.metricsServer {
				c.editor(`s/^  kubernetesVersion:/  metricsServer:\n    enabled: true\n    insecure: true\n  kubernetesVersion:/`)
				c.mustRun("edit", "cluster", "assets.k8s.local")
			}

			for _, output := range []string{"yaml", "json"} {
				r := c.mustRun("get", "assets", "--name", "assets.k8s.local", "-o", output)
				var got assetList
				if output == "json" {
					require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
				} else {
					require.NoError(t, yaml.UnmarshalStrict([]byte(r.stdout), &got))
				}
				assert.Equal(t, tt.want, got.Images, output)
				if output == "yaml" {
					assert.Regexp(t, `(?m)^- canonical: \S+\n  download: \S+\n  usedBy:$`, r.stdout, "kops's keys, ours after them")
				}
			}

			r := c.mustRun("get", "assets", "assets.k8s.local")
			assert.Regexp(t, `^CANONICAL +DOWNLOAD +USED BY\n`, r.stdout)
			for _, a := range tt.want {
				assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(a.Canonical)+` +`+regexp.QuoteMeta(a.Download)+` +`+regexp.QuoteMeta(strings.Join(a.UsedBy, ", "))+`$`, r.stdout)
			}
			assert.NoDirExists(t, c.storePath("assets.k8s.local", "addons"), "listing assets writes nothing")
		})
	}
}

func TestGetAssetsErrors(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "assets.k8s.local", "--zones", "us-east-2a")

	r := c.run("get", "assets", "assets.k8s.local", "-o", "wide")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `unknown output format "wide": use one of table, yaml, json`)

	r = c.run("get", "assets", "assets.k8s.local", "--copy")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "Error: --copy is not supported in this build: it has no container registry client to copy images with; "+
		"copy each CANONICAL image to its DOWNLOAD name with a tool such as crane or skopeo\n", r.stderr)

	r = c.run("get", "assets", "missing.k8s.local")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `no cluster "missing.k8s.local"`)

	// A hand edit of the store behind kops's back: the error names the field.
	config := c.storePath("assets.k8s.local", "config")
	data, err := os.ReadFile(config)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(config, append(data, "  assets:\n    containerRegistry: https://registry.example.com\n"...), 0o644))
	r = c.run("get", "assets", "assets.k8s.local")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "spec.assets")
	assert.Empty(t, r.stdout)
}
