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
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of kops's command conventions (kops's docs/cli/*.md) as this build has them.

func TestGetRefusesUnknownResources(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "c.k8s.local", "--zones", "us-east-2a")
	const list = "kops get takes all, assets, clusters, featureflags, instancegroups (see 'kops get --help')"
	cases := []struct {
		word, want string
	}{
		{"secrets", `unknown resource type "secrets": ` + list + `; nor is there a cluster "secrets" in state store `},
		{"keypairs", `unknown resource type "keypairs": ` + list},
		{"../x", `unknown resource type "../x": ` + list + "\n"},
		{"Clusters", `unknown resource type "Clusters": ` + list + "\n"},
	}
	for _, tc := range cases {
		t.Run(tc.word, func(t *testing.T) {
			r := c.run("get", tc.word)
			assert.Equal(t, 1, r.code)
			assert.Empty(t, r.stdout)
			assert.Contains(t, r.stderr, "Error: "+tc.want)
			assert.NotContains(t, r.stderr, "cluster not found")
		})
	}

	// kops's deprecated spelling of `get all CLUSTER` still works, and says so.
	r := c.mustRun("get", "c.k8s.local")
	assert.Contains(t, r.stderr, "`kops get [CLUSTER]` is deprecated: use `kops get all [CLUSTER]`")
	assert.Equal(t, c.mustRun("get", "all", "c.k8s.local").stdout, r.stdout)
}

func TestGetAll(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "c.k8s.local", "--zones", "us-east-2a,us-east-2b", "--control-plane-zones", "us-east-2a")
	for _, args := range [][]string{{"get", "all", "c.k8s.local"}, {"get", "all", "--name", "c.k8s.local"}} {
		r := c.mustRun(args...)
		assert.Regexp(t, `^Cluster\nNAME +CLOUD +ZONES\nc\.k8s\.local +aws +us-east-2a,us-east-2b\n\nInstance Groups\nNAME +ROLE`, r.stdout, args)
		for _, g := range []string{"control-plane-us-east-2a", "nodes-us-east-2a", "nodes-us-east-2b"} {
			assert.Regexp(t, `(?m)^`+g+` `, r.stdout)
		}
	}
	r := c.mustRun("get", "all", "c.k8s.local", "-o", "yaml")
	assert.Equal(t, 4, strings.Count(r.stdout, "apiVersion: kops.k8s.io/v1alpha2"), "the cluster and its three groups:\n%s", r.stdout)

	r = c.run("get", "all", "--name", "c.k8s.local", "c.k8s.local")
	assert.Equal(t, 0, r.code, "the same name twice is one cluster: %s", r.stderr)
	r = c.run("get", "all", "missing.k8s.local")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `no cluster "missing.k8s.local"`)
}

func TestGetClustersEmptyStore(t *testing.T) {
	c := newCLI(t)
	for _, output := range []string{"table", "yaml", "json"} {
		r := c.run("get", "clusters", "-o", output)
		assert.Equal(t, 1, r.code, output)
		assert.Empty(t, r.stdout, output)
		assert.Equal(t, "Error: no clusters found in state store "+c.state+"\n", r.stderr, output)
	}
	c.mustRun("create", "cluster", "c.k8s.local", "--zones", "us-east-2a")
	assert.Contains(t, c.mustRun("get", "clusters").stdout, "c.k8s.local")
}

// TestEditSet: --set and --unset change the stored document as the editor would, through the same
// decoding and checks; anything refused leaves the store exactly as it was.
func TestEditSet(t *testing.T) {
	cases := []struct {
		name string
		args []string
		// get reads the result back; want is in its output, or the error is.
		get, want, err string
		// appends is a --set that adds to a list, so that a second run adds again.
		appends bool
	}{
		{name: "the mission's edit", args: []string{"edit", "cluster", "s.k8s.local", "--set", "spec.kubeDNS.provider=CoreDNS", "--set", "spec.kubeDNS.serverIP=100.64.0.10"},
			get: "cluster", want: "    serverIP: 100.64.0.10\n"},
		{name: "comma-separated, list appended", args: []string{"edit", "cluster", "s.k8s.local", "--set", `"spec.kubeDNS.upstreamNameservers=1.1.1.1,8.8.8.8"`},
			get: "cluster", want: "    upstreamNameservers:\n    - 1.1.1.1\n    - 8.8.8.8\n", appends: true},
		{name: "unset", args: []string{"edit", "cluster", "s.k8s.local", "--unset", "spec.kubeDNS"}, get: "cluster", want: "  kubernetesVersion:"},
		{name: "a group", args: []string{"edit", "ig", "nodes-us-east-2a", "--name", "s.k8s.local", "--set", "spec.maxSize=3"}, get: "ig", want: "  maxSize: 3\n"},
		{name: "a value validation refuses", args: []string{"edit", "cluster", "s.k8s.local", "--set", "spec.kubeDNS.serverIP=not-an-ip"},
			err: `spec.kubeDNS.serverIP: Invalid value: "not-an-ip"`},
		{name: "a group validation refuses", args: []string{"edit", "ig", "nodes-us-east-2a", "--name", "s.k8s.local", "--set", "spec.maxSize=0"},
			err: "spec.maxSize"},
		{name: "a field of the wrong type", args: []string{"edit", "ig", "nodes-us-east-2a", "--name", "s.k8s.local", "--set", "spec.maxSize=many"},
			err: `--set spec.maxSize=many: spec.maxSize: Invalid value: "many": must be an integer of 32 bits`},
		{name: "a misspelt field", args: []string{"edit", "cluster", "s.k8s.local", "--set", "spec.kubeDNS.provder=CoreDNS"},
			err: `did you mean "provider"?`},
		{name: "no value", args: []string{"edit", "cluster", "s.k8s.local", "--set", "spec.kubeDNS.provider"}, err: "must be FIELD=VALUE"},
		{name: "a line break in a value", args: []string{"edit", "cluster", "s.k8s.local", "--set", "spec.kubeDNS.serverIP=100.64.0.10\nspec.kubeDNS.provider=KubeDNS"},
			err: `--set "spec.kubeDNS.serverIP=100.64.0.10\nspec.kubeDNS.provider=KubeDNS": holds a line break`},
		{name: "a line break quoted", args: []string{"edit", "ig", "nodes-us-east-2a", "--name", "s.k8s.local", "--set", "\"spec.maxSize=3\r\n\""},
			err: `--set "\"spec.maxSize=3\r\n\"": holds a line break`},
		{name: "a line break in an unset", args: []string{"edit", "cluster", "s.k8s.local", "--unset", "spec.kubeDNS\nspec.kubeProxy"},
			err: `--unset "spec.kubeDNS\nspec.kubeProxy": holds a line break`},
		{name: "the name cannot change", args: []string{"edit", "cluster", "s.k8s.local", "--set", "metadata.name=t.k8s.local"},
			err: `the name cannot be changed from "s.k8s.local"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.env["KOPS_EDITOR"] = "false" // --set never opens the editor
			c.mustRun("create", "cluster", "s.k8s.local", "--zones", "us-east-2a")
			before := snapshotDir(t, c.storePath())
			r := c.run(tc.args...)
			if tc.err != "" {
				assert.Equal(t, 1, r.code, r.stdout)
				assert.Contains(t, r.stderr, tc.err)
				assert.NotRegexp(t, `\.yaml:\d+`, r.stderr, "no line of a file the user never saw")
				assert.Equal(t, before, snapshotDir(t, c.storePath()), "the state store is untouched")
				return
			}
			require.Equal(t, 0, r.code, r.stderr)
			got := c.mustRun("get", "cluster", "s.k8s.local", "-o", "yaml").stdout
			if tc.get == "ig" {
				got = c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "s.k8s.local", "-o", "yaml").stdout
			}
			assert.Contains(t, got, tc.want)
			if !tc.appends {
				again := c.mustRun(tc.args...)
				assert.Contains(t, again.stdout, "unchanged: it already has these values", "a second run stores nothing")
			}
		})
	}
}

func TestCreateClusterSet(t *testing.T) {
	c := newCLI(t)
	r := c.mustRun("create", "cluster", "s.k8s.local", "--zones", "us-east-2a", "--set", "spec.kubeDNS.serverIP=100.64.0.10", "--dry-run", "-o", "yaml")
	assert.Contains(t, r.stdout, "    serverIP: 100.64.0.10\n")
	r = c.run("create", "cluster", "s.k8s.local", "--zones", "us-east-2a", "--set", "spec.kubeDNS.serverIP=nope")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `spec.kubeDNS.serverIP: Invalid value: "nope"`)
	assert.Empty(t, c.storeFiles(), "nothing stored")
}

// TestNodeGroupsPerZone: as kops, create cluster makes one group of nodes per zone.
func TestNodeGroupsPerZone(t *testing.T) {
	c := newCLI(t)
	r := c.mustRun("create", "cluster", "z.k8s.local", "--zones", "us-east-2a,us-east-2b,us-east-2c", "--control-plane-zones", "us-east-2a", "--node-count", "4")
	assert.Contains(t, r.stdout, " * edit your node instance group: kops edit ig --name=z.k8s.local nodes-us-east-2a\n")
	r = c.mustRun("get", "ig", "--name", "z.k8s.local")
	for _, row := range []string{`nodes-us-east-2a +Node +t3.medium +2 +2 +us-east-2a`, `nodes-us-east-2b +Node +t3.medium +1 +1 +us-east-2b`, `nodes-us-east-2c +Node +t3.medium +1 +1 +us-east-2c`} {
		assert.Regexp(t, `(?m)^`+row+`$`, r.stdout)
	}
}

func TestVersionShort(t *testing.T) {
	c := newCLI(t)
	assert.Equal(t, version+"\n", c.mustRun("version", "--short").stdout)
	assert.Contains(t, c.mustRun("version").stdout, "Client version: "+version)
}

// TestKopsFlagsThisBuildCannotHonour: kops's flags are read as kops reads them and refused in one
// sentence that says why, never as unknown flags; those that ask for a kubeconfig are a note.
func TestKopsFlagsThisBuildCannotHonour(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "f.k8s.local", "--zones", "us-east-2a")
	cases := []struct {
		args []string
		// refused is the error; else note is on stderr and the command succeeds.
		refused, note string
	}{
		{args: []string{"create", "cluster", "g.k8s.local", "--zones", "us-east-2a", "--networking", "cilium"}, refused: "--networking is not supported in this build: it installs no CNI"},
		{args: []string{"create", "cluster", "g.k8s.local", "--zones", "us-east-2a", "--bastion"}, refused: "--bastion is not supported in this build: it makes a bastion group"},
		{args: []string{"create", "cluster", "g.k8s.local", "--zones", "us-east-2a", "-t", "private"}, refused: "--topology is not supported in this build"},
		{args: []string{"get", "clusters", "--config", "/tmp/kops.yaml"}, refused: "--config is not supported in this build: it reads no config file"},
		{args: []string{"version", "--alsologtostderrthreshold", "INFO"}, refused: "--alsologtostderrthreshold is not supported in this build: this build's klog has no such setting"},
		{args: []string{"get", "assets", "f.k8s.local", "--copy"}, refused: "--copy is not supported in this build"},
		{args: []string{"version", "--server"}, refused: "--server is not supported in this build"},
		{args: []string{"update", "cluster", "f.k8s.local", "--instance-group", "nodes-us-east-2a"}, refused: "--instance-group is not supported in this build"},
		{args: []string{"validate", "cluster", "f.k8s.local", "--max-unready-nodes", "1"}, refused: "--max-unready-nodes is not supported in this build"},
		{args: []string{"validate", "cluster", "f.k8s.local", "--api-server", "https://x"}, refused: "--api-server is not supported in this build"},
		{args: []string{"create", "ig", "x", "--name", "f.k8s.local", "--zone", "us-east-2a"}, refused: "--zone is not supported in this build"},
		{args: []string{"delete", "cluster", "f.k8s.local", "--yes", "--wait", "10m"}, refused: "--wait is not supported in this build: it calls no cloud API"},
		{args: []string{"delete", "cluster", "f.k8s.local", "--external", "--region", "us-east-2"}, refused: "--external is not supported in this build"},
		{args: []string{"delete", "cluster", "f.k8s.local", "--unregister"}},
		{args: []string{"update", "cluster", "f.k8s.local", "--admin"}, note: "W: --admin is not supported in this build: it keeps no cluster CA or credentials, so it writes no kubeconfig"},
		{args: []string{"update", "cluster", "f.k8s.local", "--yes", "--admin=1h"}, note: "W: --admin is not supported in this build"},
		{args: []string{"update", "cluster", "f.k8s.local", "--create-kube-config"}, note: "W: --create-kube-config is not supported in this build"},
		{args: []string{"update", "cluster", "f.k8s.local", "--create-kube-config=false"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := c.run(tc.args...)
			assert.NotContains(t, r.stderr, "unknown flag")
			if tc.refused != "" {
				assert.Equal(t, 1, r.code, r.stdout)
				assert.True(t, strings.HasPrefix(r.stderr, "Error: "+tc.refused), r.stderr)
				assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one sentence: %s", r.stderr)
				return
			}
			assert.Equal(t, 0, r.code, r.stderr)
			if tc.note == "" {
				assert.NotContains(t, r.stderr, "not supported")
			} else {
				assert.Contains(t, r.stderr, tc.note)
			}
		})
	}
	r := c.run("update", "cluster", "f.k8s.local", "--admin=soon")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `invalid argument "soon" for "--admin"`, "parsed as kops parses it")
}

// TestInstanceGroupCreateDelete: create ig stores a group made from kops's defaults, checked as a
// file's; delete ig removes it and the node files update wrote for it.
func TestInstanceGroupCreateDelete(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "g.k8s.local", "--zones", "us-east-2a,us-east-2b", "--control-plane-zones", "us-east-2a", "--yes")
	nodeFiles := c.storePath("g.k8s.local", "igconfig", "node", "nodes-us-east-2b")
	require.DirExists(t, nodeFiles)

	refused := []struct {
		args []string
		want string
	}{
		{[]string{"create", "ig", "x", "--name", "g.k8s.local", "--edit=false", "--subnet", "nope"}, `spec.subnets[0]: Not found: "nope"`},
		{[]string{"create", "ig", "nodes-us-east-2a", "--name", "g.k8s.local", "--edit=false"}, `"nodes-us-east-2a": already exists in cluster "g.k8s.local"`},
		{[]string{"create", "ig", "x", "--name", "g.k8s.local", "--role", "robot"}, `--role "robot": use node, control-plane, apiserver or bastion`},
		{[]string{"create", "ig", "../x", "--name", "g.k8s.local", "--edit=false"}, `metadata.name: Invalid value: "../x"`},
		{[]string{"create", "ig", "x", "--name", "missing.k8s.local", "--edit=false"}, `no cluster "missing.k8s.local"`},
		{[]string{"delete", "ig", "control-plane-us-east-2a", "--name", "g.k8s.local", "--yes"}, "is the cluster's only control plane"},
		{[]string{"delete", "ig", "nope", "--name", "g.k8s.local", "--yes"}, `no instance group "nope" in cluster "g.k8s.local"`},
		{[]string{"delete", "ig", "../../x", "--name", "g.k8s.local", "--yes"}, `metadata.name: Invalid value: "../../x"`},
	}
	for _, tc := range refused {
		before := snapshotDir(t, c.storePath())
		r := c.run(tc.args...)
		assert.Equal(t, 1, r.code, tc.args)
		assert.Contains(t, r.stderr, tc.want, tc.args)
		assert.Equal(t, before, snapshotDir(t, c.storePath()), "the store is untouched: %v", tc.args)
	}

	r := c.mustRun("create", "ig", "big", "--name", "g.k8s.local", "--dry-run", "-o", "yaml")
	assert.Contains(t, r.stdout, "  maxSize: 2\n  minSize: 2\n  role: Node\n  subnets:\n  - us-east-2a\n  - us-east-2b\n")
	assert.NoFileExists(t, c.storePath("g.k8s.local", "instancegroup", "big"))

	c.editor(`s/t3.medium/m5.large/`)
	r = c.mustRun("create", "ig", "big", "--name", "g.k8s.local", "--subnet", "us-east-2b")
	assert.Contains(t, r.stdout, "Created instancegroup/big\n")
	assert.Regexp(t, `(?m)^big +Node +m5\.large +2 +2 +us-east-2b$`, c.mustRun("get", "ig", "--name", "g.k8s.local").stdout, "the editor's change is stored")

	r = c.mustRun("delete", "ig", "nodes-us-east-2b", "--name", "g.k8s.local")
	assert.Contains(t, r.stdout, filepath.Join("igconfig", "node", "nodes-us-east-2b", "kops-pod-metadata-access.sh")+"\n")
	assert.True(t, strings.HasSuffix(r.stdout, "instancegroup/nodes-us-east-2b\n\nMust specify --yes to delete instancegroup\n"), r.stdout)
	require.DirExists(t, nodeFiles, "nothing deleted without --yes")

	r = c.mustRun("delete", "ig", "nodes-us-east-2b", "--name", "g.k8s.local", "--yes")
	assert.Equal(t, "Deleted InstanceGroup: \"nodes-us-east-2b\"\n", r.stdout)
	assert.NoDirExists(t, nodeFiles, "the group's node files go with it")
	assert.NoFileExists(t, c.storePath("g.k8s.local", "instancegroup", "nodes-us-east-2b"))
	assert.DirExists(t, c.storePath("g.k8s.local", "igconfig", "node", "nodes-us-east-2a"), "the other groups' stay")

	// The next update settles the node files' ledger: nothing else is left to do after it.
	c.mustRun("update", "cluster", "g.k8s.local", "--yes")
	assert.Contains(t, c.mustRun("update", "cluster", "g.k8s.local").stdout, "No changes need to be applied")
}

// TestDeleteInstanceGroupLeavesOthersFolders: a folder in a group's node files is not kops's; the
// delete refuses and removes nothing.
func TestDeleteInstanceGroupLeavesOthersFolders(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "g.k8s.local", "--zones", "us-east-2a", "--yes")
	require.NoError(t, mkdirAll(c.storePath("g.k8s.local", "igconfig", "node", "nodes-us-east-2a", "mine")))
	before := snapshotDir(t, c.storePath())
	r := c.run("delete", "ig", "nodes-us-east-2a", "--name", "g.k8s.local", "--yes")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "in the node files of instance group \"nodes-us-east-2a\"")
	assert.Contains(t, r.stderr, "nothing was deleted")
	assert.Equal(t, before, snapshotDir(t, c.storePath()))
}

// TestCompletion: the shell completes cluster and group names from the state store.
func TestCompletion(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "alpha.k8s.local", "--zones", "us-east-2a")
	c.mustRun("create", "cluster", "beta.k8s.local", "--zones", "us-east-2a,us-east-2b", "--control-plane-zones", "us-east-2a")
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"edit", "cluster", ""}, []string{"alpha.k8s.local", "beta.k8s.local"}},
		{[]string{"update", "cluster", "b"}, []string{"beta.k8s.local"}},
		{[]string{"validate", "cluster", ""}, []string{"alpha.k8s.local", "beta.k8s.local"}},
		{[]string{"get", "clusters", "alpha.k8s.local", ""}, []string{"beta.k8s.local"}},
		{[]string{"get", "ig", "--name", ""}, []string{"alpha.k8s.local", "beta.k8s.local"}},
		{[]string{"edit", "ig", "--name", "beta.k8s.local", ""}, []string{"control-plane-us-east-2a", "nodes-us-east-2a", "nodes-us-east-2b"}},
		{[]string{"delete", "ig", "--name", "beta.k8s.local", ""}, []string{"nodes-us-east-2a", "nodes-us-east-2b"}},
		{[]string{"edit", "ig", ""}, []string{"--name"}},
		{[]string{"edit", "cluster", "alpha.k8s.local", ""}, nil},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := c.mustRun(append([]string{"__complete"}, tc.args...)...)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			require.NotEmpty(t, lines)
			assert.Equal(t, ":4", lines[len(lines)-1], "no file completion")
			var got []string
			for _, l := range lines[:len(lines)-1] {
				if !strings.HasPrefix(l, "Completion ended") {
					got = append(got, l)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}

	// A store that cannot be read completes nothing, quietly.
	c.env["KOPS_STATE_STORE"] = "s3://bucket"
	r := c.mustRun("__complete", "edit", "cluster", "")
	assert.Equal(t, ":1\n", r.stdout)
}

func TestLogLevelFlag(t *testing.T) {
	c := newCLI(t)
	assert.Equal(t, version+"\n", c.mustRun("-v", "6", "version", "--short").stdout)
	assert.Equal(t, version+"\n", c.mustRun("version", "--short", "--v=2").stdout)
	r := c.run("version", "-v", "loud")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `invalid argument "loud" for "-v, --v"`)
	help := c.mustRun("--help").stdout
	assert.Contains(t, help, "-v, --v Level")
	assert.NotContains(t, help, "--logtostderr", "klog's other flags work but are not shown")
}

// TestValidateExitCodesAndContext: a cluster validated and found unhealthy exits 2; one that cannot
// be validated exits 1. The kubeconfig's context named after the cluster is used before the
// current one.
func TestValidateExitCodesAndContext(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "v.k8s.local", "--zones", "us-east-2a", "--yes")
	answering := serverURL(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api" {
			_, _ = fmt.Fprint(w, `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"10.0.0.1:443"}]}`)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"%s not found","reason":"NotFound","code":404}`, r.URL.Path)
	})
	closed := listenerURL(t, true)
	cases := []struct {
		name       string
		kubeconfig string
		args       []string
		code       int
		stderr     []string
	}{
		{name: "unhealthy: 2", kubeconfig: kubeconfigFor(t, answering), code: exitValidationFailed,
			stderr: []string{`Error: cluster "v.k8s.local" is not healthy: `}},
		{name: "unreachable: 1", kubeconfig: kubeconfigFor(t, closed), code: 1, stderr: []string{"Error: cannot validate against the API server " + closed}},
		{name: "the cluster's context before the current one",
			kubeconfig: kubeconfigWith(t, map[string]string{"v.k8s.local": answering, "other": closed}, "other"), code: exitValidationFailed},
		{name: "else the current context, with a warning",
			kubeconfig: kubeconfigWith(t, map[string]string{"other": answering}, "other"), code: exitValidationFailed,
			stderr: []string{`W: the kubeconfig has no context named "v.k8s.local", the cluster's name; using its current context "other"` + "\n"}},
		{name: "a missing kubeconfig", kubeconfig: "/nonexistent/kubeconfig", code: 1, stderr: []string{"Error: kubeconfig /nonexistent/kubeconfig does not exist\n"}},
		{name: "--count needs --wait", kubeconfig: kubeconfigFor(t, answering), args: []string{"--count", "3"}, code: 1,
			stderr: []string{"--count=3: it must not be negative, and more than one validation needs --wait to make them in"}},
		{name: "--count with --wait, never healthy: 2", kubeconfig: kubeconfigFor(t, answering), args: []string{"--count", "2", "--wait", "200ms", "--interval", "50ms"},
			code: exitValidationFailed, stderr: []string{"Validation 1 failed: "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(append([]string{"validate", "cluster", "v.k8s.local", "--kubeconfig", tc.kubeconfig}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, r.stderr)
			for _, s := range tc.stderr {
				assert.Contains(t, r.stderr, s)
			}
			for _, line := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(line, "Validation ") {
					assert.LessOrEqual(t, len([]rune(line)), 100, "a short progress line: %s", line)
				}
			}
		})
	}
}

func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }
