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
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// cli runs kops in-process against one temporary file:// state store.
type cli struct {
	t     testing.TB
	state string
	env   map[string]string
}

type result struct {
	code   int
	stdout string
	stderr string
}

func newCLI(t *testing.T) *cli {
	state := "file://" + filepath.Join(t.TempDir(), "state")
	return &cli{t: t, state: state, env: map[string]string{"KOPS_STATE_STORE": state}}
}

func (c *cli) run(args ...string) result {
	var out, errOut bytes.Buffer
	code := run(args, c.env, strings.NewReader(""), &out, &errOut, testPaths(c.env))
	return result{code, out.String(), errOut.String()}
}

func (c *cli) mustRun(args ...string) result {
	c.t.Helper()
	r := c.run(args...)
	require.Equal(c.t, 0, r.code, "kops %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
	return r
}

// storePath is a file inside the state store.
func (c *cli) storePath(parts ...string) string {
	return filepath.Join(append([]string{strings.TrimPrefix(c.state, "file://")}, parts...)...)
}

// editor makes a KOPS_EDITOR that applies one sed script per invocation, in turn.
func (c *cli) editor(scripts ...string) {
	dir := c.t.TempDir()
	var b strings.Builder
	b.WriteString("#!/bin/sh\nset -e\nn=$(cat " + dir + "/n 2>/dev/null || echo 0)\necho $((n+1)) > " + dir + "/n\ncase $n in\n")
	for i, s := range scripts {
		b.WriteString(strings.Repeat(" ", 2) + string(rune('0'+i)) + ") sed -i '" + s + "' \"$1\" ;;\n")
	}
	b.WriteString("esac\n")
	path := filepath.Join(dir, "editor.sh")
	require.NoError(c.t, os.WriteFile(path, []byte(b.String()), 0o755))
	c.env["KOPS_EDITOR"] = path
}

func TestCreateGetEdit(t *testing.T) {
	c := newCLI(t)
	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseOperators"
	r := c.mustRun("create", "cluster", "addons.k8s.local", "--zones", "us-east-2a")
	assert.Contains(t, r.stdout, "kops update cluster --name addons.k8s.local --yes")
	assert.Contains(t, r.stderr, `feature flag "UseOperators" is an alias of "UseAddonOperators"`)
	for _, p := range []string{"config", "instancegroup/control-plane-us-east-2a", "instancegroup/nodes-us-east-2a"} {
		assert.FileExists(t, c.storePath("addons.k8s.local", p))
	}

	r = c.mustRun("get", "clusters")
	assert.Equal(t, "NAME              CLOUD  ZONES\naddons.k8s.local  aws    us-east-2a\n", r.stdout)

	r = c.mustRun("get", "ig", "--name", "addons.k8s.local")
	assert.Contains(t, r.stdout, "control-plane-us-east-2a  ControlPlane  t3.medium    1    1    us-east-2a")

	c.editor(`s/provider: CoreDNS/provider: CoreDNS\n    upstreamNameservers: [1.1.1.1]/`)
	r = c.mustRun("edit", "cluster", "addons.k8s.local")
	assert.Contains(t, r.stdout, `Cluster "addons.k8s.local" updated`)

	r = c.mustRun("get", "cluster", "addons.k8s.local", "-o", "yaml")
	assert.Contains(t, r.stdout, "  kubeDNS:\n    provider: CoreDNS\n    upstreamNameservers:\n    - 1.1.1.1\n")

	r = c.mustRun("get", "cluster", "addons.k8s.local", "-o", "json")
	assert.Contains(t, r.stdout, `"upstreamNameservers": [`)
}

func TestEditRefusesTypoAndKeepsStore(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "typo.k8s.local", "--zones", "us-east-2a")
	config := c.storePath("typo.k8s.local", "config")
	before, err := os.ReadFile(config)
	require.NoError(t, err)

	// The user types CoreDSN, is shown the error, and saves the same text again: kops gives up.
	c.editor("s/provider: CoreDNS/provider: CoreDSN/", "s/^# .*//")
	r := c.run("edit", "cluster", "typo.k8s.local")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "Edit cancelled, no valid changes were saved")

	after, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the stored spec is byte-for-byte unchanged")
}

func TestEditShowsFieldPathErrors(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "typo.k8s.local", "--zones", "us-east-2a")
	// Record what the editor is shown the second time: the errors as comments, then the text.
	dir := t.TempDir()
	c.editor("s/provider: CoreDNS/provider: CoreDSN/", "w "+dir+"/shown")
	r := c.run("edit", "cluster", "typo.k8s.local")
	assert.Equal(t, 1, r.code)
	shown, err := os.ReadFile(filepath.Join(dir, "shown"))
	require.NoError(t, err)
	assert.Contains(t, string(shown), `# cluster-typo.k8s.local.yaml:18: document 1 (Cluster "typo.k8s.local"): spec.kubeDNS.provider: Unsupported value: "CoreDSN": supported values: "CoreDNS"`)
	assert.Contains(t, string(shown), "    provider: CoreDSN\n", "the user's text is kept")
}

func TestEditNoChange(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "same.k8s.local", "--zones", "us-east-2a")
	c.editor("s/x/x/")
	r := c.mustRun("edit", "cluster", "same.k8s.local")
	assert.Equal(t, "Edit cancelled, no changes made.\n", r.stdout)
}

func TestUnmodeledFieldsSurvive(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)

	r := c.mustRun("create", "-f", "testdata/cluster-with-unmodeled.yaml")
	assert.Equal(t, "Created cluster/unmodeled.example.com\nCreated instancegroup/control-plane-us-east-2a\nCreated instancegroup/nodes\n", r.stdout)
	for _, path := range []string{"spec.api", "spec.etcdClusters", "spec.kubeDNS.nodeLocalDNS", "spec.kubeProxy", "spec.subnets[0].egress", "spec.rootVolumeSize", "spec.nodeLabels"} {
		assert.Equal(t, 1, strings.Count(r.stderr, "field "+path+" is not modeled"), "one warning for %s in:\n%s", path, r.stderr)
	}

	r = c.mustRun("get", "--name", "unmodeled.example.com", "-o", "yaml")
	assertSameDocuments(t, string(input), r.stdout)

	// An edit of one modeled field keeps every unmodeled one.
	c.editor("s/kubernetesVersion: 1.35.4/kubernetesVersion: 1.35.5/")
	c.mustRun("edit", "cluster", "unmodeled.example.com")
	r = c.mustRun("get", "--name", "unmodeled.example.com", "-o", "yaml")
	assertSameDocuments(t, strings.Replace(string(input), "1.35.4", "1.35.5", 1), r.stdout)

	c.editor("s/rootVolumeSize: 64/rootVolumeSize: 96/")
	c.mustRun("edit", "ig", "control-plane-us-east-2a", "--name", "unmodeled.example.com")
	r = c.mustRun("get", "ig", "control-plane-us-east-2a", "--name", "unmodeled.example.com", "-o", "yaml")
	assert.Contains(t, r.stdout, "rootVolumeSize: 96")
	assert.Contains(t, r.stdout, "role: Master", "the old role name is kept as written")
}

func TestFeatureFlags(t *testing.T) {
	cases := []struct {
		name       string
		flags      string
		wantStdout []string
		wantStderr string
	}{
		{"defaults", "", []string{"ClusterAddons      false    false  default", "UseAddonOperators  false    false  default"}, ""},
		{"alias", "ClusterAddons,UseOperators", []string{"ClusterAddons      false    true   env", "UseAddonOperators  false    true   env (alias UseOperators)"}, `I: feature flag "UseOperators" is an alias of "UseAddonOperators"`},
		{"typo", "UseAddonOperatorz", []string{"UseAddonOperators  false    false  default"}, `W: unknown feature flag "UseAddonOperatorz" in KOPS_FEATURE_FLAGS; did you mean "UseAddonOperators"?`},
		{"last wins", "+UseAddonOperators, -UseOperators", []string{"UseAddonOperators  false    false  env (alias UseOperators)"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = tc.flags
			r := c.mustRun("get", "featureflags")
			for _, want := range tc.wantStdout {
				assert.Contains(t, r.stdout, want)
			}
			if tc.wantStderr == "" {
				assert.NotContains(t, r.stderr, "W:")
			} else {
				assert.Contains(t, r.stderr, tc.wantStderr)
			}
		})
	}
}

func TestAddNeedsClusterAddons(t *testing.T) {
	addon := filepath.Join(t.TempDir(), "addon.yaml")
	require.NoError(t, os.WriteFile(addon, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: kube-system\ndata:\n  a: b\n"), 0o644))

	c := newCLI(t)
	r := c.run("create", "cluster", "a.k8s.local", "--zones", "us-east-2a", "--add", addon)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "Error: unknown flag: --add")

	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons"
	c.mustRun("create", "cluster", "a.k8s.local", "--zones", "us-east-2a", "--add", addon)
	stored, err := os.ReadFile(c.storePath("a.k8s.local", "clusteraddons", "default"))
	require.NoError(t, err)
	assert.Contains(t, string(stored), "name: extra")
}

func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: bad.k8s.local\nspec:\n  kubernetesVersion: 1.35.4\n  cloudProvider: aws\n  kubeDNS:\n    provider: CoreDSN\n    serverIP: 10.0.0.10\n"), 0o644))
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		{"no state", map[string]string{}, []string{"get", "clusters"}, []string{"the state store is not set"}},
		{"s3 state without credentials", map[string]string{"KOPS_STATE_STORE": "s3://bucket"}, []string{"get", "clusters"},
			[]string{`s3://bucket: no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure the AWS credential chain`}},
		{"gs state", map[string]string{"KOPS_STATE_STORE": "gs://bucket"}, []string{"get", "clusters"}, []string{`uses scheme "gs", which is not supported by this build`}},
		{"no name", nil, []string{"edit", "cluster"}, []string{"no cluster name"}},
		{"missing cluster", nil, []string{"get", "cluster", "nope.k8s.local", "-o", "yaml"}, []string{`no cluster "nope.k8s.local"`}},
		{"bad output", nil, []string{"get", "clusters", "-o", "xml"}, []string{`unknown output format "xml"`}},
		{"invalid file", nil, []string{"create", "-f", bad}, []string{
			bad + `:9: document 1 (Cluster "bad.k8s.local"): spec.kubeDNS.provider: Unsupported value: "CoreDSN"`,
			bad + `:10: document 1 (Cluster "bad.k8s.local"): spec.kubeDNS.serverIP: Invalid value: "10.0.0.10"`,
		}},
		{"delete missing", nil, []string{"delete", "cluster", "nope.k8s.local", "--yes"}, []string{`no cluster "nope.k8s.local"`}},
		{"bad cluster name", nil, []string{"create", "cluster", "nodots", "--zones", "us-east-2a"}, []string{"metadata.name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			if tc.env != nil {
				c.env = tc.env
			}
			r := c.run(tc.args...)
			assert.Equal(t, 1, r.code)
			assert.Empty(t, r.stdout)
			for _, want := range tc.want {
				assert.Contains(t, r.stderr, want)
			}
			assert.NoDirExists(t, c.storePath("bad.k8s.local"), "nothing stored")
		})
	}
}

func TestDeleteCluster(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "gone.k8s.local", "--zones", "us-east-2a")
	r := c.mustRun("delete", "cluster", "gone.k8s.local")
	assert.Contains(t, r.stdout, "Must specify --yes to delete cluster")
	assert.DirExists(t, c.storePath("gone.k8s.local"))
	c.mustRun("delete", "cluster", "gone.k8s.local", "--yes")
	assert.NoDirExists(t, c.storePath("gone.k8s.local"))
}

func TestDryRunPrintsWithoutStoring(t *testing.T) {
	c := newCLI(t)
	r := c.mustRun("create", "cluster", "dry.k8s.local", "--zones", "us-east-2a", "--dry-run", "-o", "yaml")
	assert.Equal(t, 3, strings.Count(r.stdout, "apiVersion: kops.k8s.io/v1alpha2"))
	assert.NoDirExists(t, c.storePath("dry.k8s.local"))
}

func TestVersion(t *testing.T) {
	r := newCLI(t).mustRun("version")
	assert.Contains(t, r.stdout, "Client version: ")
}

// assertSameDocuments compares two YAML streams as data, document by document.
func assertSameDocuments(t *testing.T, want, got string) {
	t.Helper()
	w, g := strings.Split(want, "\n---\n"), strings.Split(got, "\n---\n")
	require.Len(t, g, len(w), got)
	for i := range w {
		var wv, gv interface{}
		require.NoError(t, yaml.Unmarshal([]byte(w[i]), &wv))
		require.NoError(t, yaml.Unmarshal([]byte(g[i]), &gv))
		assert.Equal(t, wv, gv, "document %d", i+1)
	}
}

// bootstrap makes the cluster's launch templates bootable, so that kops writes them: it tells
// update where nodeup is (the control plane's bootstrap) and gives each node group (one per zone,
// as create cluster makes them) a bootstrap of its own in spec.additionalUserData, as a user carries
// kops's nodeup script there.
func (c *cli) bootstrap(cluster string) {
	c.t.Helper()
	c.env["NODEUP_URL_AMD64"] = "https://example.com/nodeup-linux-amd64"
	c.env["NODEUP_HASH_AMD64"] = strings.Repeat("ab", 32)
	entries, err := os.ReadDir(c.storePath(cluster, "instancegroup"))
	require.NoError(c.t, err)
	var groups []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "nodes") {
			groups = append(groups, e.Name())
		}
	}
	require.NotEmpty(c.t, groups, "the cluster has node groups")
	script := `s/^spec:$/spec:\n  additionalUserData:\n  - name: nodeup.sh\n    type: text\/x-shellscript\n    content: "#!\/bin\/sh"/`
	scripts := make([]string, len(groups))
	for i := range scripts {
		scripts[i] = script
	}
	c.editor(scripts...)
	for _, g := range groups {
		c.mustRun("edit", "ig", g, "--name", cluster)
	}
}
