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
			[]string{"--zones span regions us-east-2 (us-east-2a) and us-west-2 (us-west-2b): a cluster lies in one region"}},
		{"absurd Kubernetes version", []string{"--kubernetes-version", "99.0.0"},
			[]string{"--kubernetes-version 99.0.0 is not supported: this build supports Kubernetes 1.30 to 1.36"}},
		{"Kubernetes version not a version", []string{"--kubernetes-version", "stable"},
			[]string{`--kubernetes-version "stable" is not a version`}},
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
