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
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// What create cluster cannot build is refused before anything is stored, not at update time.
func TestCreateClusterRefusesAtCreate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badNames := write("bad-names.yaml", `apiVersion: v1
kind: ConfigMap
metadata:
  name: Dashboards_1
  namespace: kube-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: ../etc
---
apiVersion: v1
kind: Namespace
metadata:
  name: team.a
`)
	twice := write("twice.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n")
	cluster := write("cluster.yaml", "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: c.k8s.local\n")
	empty := write("empty.yaml", "---\n")

	base := []string{"create", "cluster", "refused.k8s.local", "--zones", "us-east-2a"}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unsupported cloud", []string{"--cloud", "vsphere", "--node-size", "x", "--control-plane-size", "x"},
			[]string{`unsupported --cloud "vsphere": use one of aws, gce, azure, digitalocean, hetzner, openstack, scaleway`}},
		{"zones in two regions", []string{"--zones", "us-west-2b"},
			[]string{`spec.subnets[1].zone: Invalid value: "us-west-2b": region us-west-2 differs from region us-east-2 of spec.subnets[0].zone "us-east-2a": a cluster lies in one region (from --zones)`}},
		{"absurd Kubernetes version", []string{"--kubernetes-version", "99.0.0"},
			[]string{`spec.kubernetesVersion: Invalid value: "99.0.0": is not supported: this build supports Kubernetes 1.30 to 1.36 (from --kubernetes-version)`}},
		{"Kubernetes version not a version", []string{"--kubernetes-version", "stable"},
			[]string{`spec.kubernetesVersion: Invalid value: "stable": must be a semantic version such as 1.34.2 or v1.34.2 (from --kubernetes-version)`}},
		{"a zone of no cloud", []string{"--zones", "mars-1a"},
			[]string{`spec.subnets[1].zone: Invalid value: "mars-1a": is not an AWS availability zone (e.g. us-east-2a) (from --zones)`}},
		{"an AWS zone on GCE", []string{"--cloud", "gce"},
			[]string{`--zones: "us-east-2a" is not a GCE zone (e.g. us-central1-a)`}},
		{"the whole IPv6 space as the network", []string{"--network-cidr", "::/0"}, []string{
			`spec.networkCIDR: Invalid value: "::/0": is the whole IPv6 address space, which no network of machines can be: give a range of the cluster's own network (its VPC), e.g. 172.20.0.0/16 (from --network-cidr)`,
			`spec.networkCIDR: Invalid value: "::/0": must be an IPv4 CIDR: the cluster is IPv4 (spec.nonMasqueradeCIDR "100.64.0.0/10")`,
		}},
		{"invalid --add names", []string{"--add", badNames}, []string{
			badNames + `:4: document 1 (ConfigMap "Dashboards_1"): metadata.name: Invalid value: "Dashboards_1": a lowercase RFC 1123 subdomain`,
			badNames + `:11: document 2 (ConfigMap "extra"): metadata.namespace: Invalid value: "../etc": a lowercase RFC 1123 label`,
			badNames + `:16: document 3 (Namespace "team.a"): metadata.name: Invalid value: "team.a": must not contain dots`,
		}},
		{"an --add object twice", []string{"--add", twice},
			[]string{twice + `:10: document 2 (ConfigMap "a"): metadata.name: Duplicate value: "a"`}},
		{"a Cluster in --add", []string{"--add", cluster},
			[]string{cluster + `:1: document 1 (Cluster "c.k8s.local"): --add files hold other objects only`}},
		{"empty --add file", []string{"--add", empty}, []string{"no objects found in --add file " + empty}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons"
			r := c.run(append(append([]string(nil), base...), tc.args...)...)
			assert.Equal(t, 1, r.code)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Empty(t, c.storeFiles(), "nothing stored")
		})
	}
}
