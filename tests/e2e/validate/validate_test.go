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

package validate

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// exitUnhealthy is kops's exit code for a cluster validated and found unhealthy; 1 is for a
// validation that could not be made.
const exitUnhealthy = 2

// result mirrors what -o json and -o yaml print.
type result struct {
	Cluster string `json:"cluster"`
	Channel string `json:"channel"`
	DNS     string `json:"dns"`
	Checks  []struct {
		Kind    string `json:"kind"`
		Name    string `json:"name"`
		OK      bool   `json:"ok"`
		Message string `json:"message"`
	} `json:"checks"`
}

func (r result) failing() map[string]string {
	out := map[string]string{}
	for _, c := range r.Checks {
		if !c.OK {
			out[c.Kind+" "+c.Name] = c.Message
		}
	}
	return out
}

func TestValidateBuiltIn(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	c := newCluster(t, bin, "builtin.k8s.local", "")
	validate := func(args ...string) kopsenv.Run {
		return c.run(t, "kops", append([]string{"validate", "cluster", c.name}, args...)...)
	}

	t.Run("Deployment not available yet", func(t *testing.T) {
		r := validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stdout, "Deployment  kube-system/coredns")
		assert.Contains(t, r.Stderr, `Error: cluster "builtin.k8s.local" is not healthy: 1 of 4 checks failed:`)
		assert.Contains(t, r.Stderr, "  Deployment kube-system/coredns: not available: generation 1 not yet observed by its controller")
		setDeploymentStatus(t, "kube-system", "coredns", nil)
		r = validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stderr, "  Deployment kube-system/coredns: not available: no Available condition yet, 0/1 replicas ready")
		setDeploymentAvailable(t, "kube-system", "coredns", false)
		r = validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stderr, "  Deployment kube-system/coredns: not available: MinimumReplicasUnavailable Deployment does not have minimum availability.")
	})

	t.Run("Deployment available, rollout not finished", func(t *testing.T) {
		setDeploymentAvailable(t, "kube-system", "coredns", true)
		setDeploymentRollingOut(t, "kube-system", "coredns")
		r := validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stderr, "  Deployment kube-system/coredns: not ready: Updated: 0/1")
	})

	setDeploymentAvailable(t, "kube-system", "coredns", true)
	t.Run("healthy", func(t *testing.T) {
		r := validate()
		require.Equal(t, 0, r.Code, r.Stderr)
		assert.Contains(t, r.Stdout, "Validating cluster builtin.k8s.local (DNS: built-in) against "+c.channel()+"\n")
		assert.Regexp(t, `Addon +coredns.addons.k8s.io +OK +applied at version "k8s-1.12", manifest [0-9a-f]{12}\n`, r.Stdout)
		assert.Regexp(t, `Service +kube-system/kube-dns +OK +clusterIP 100.64.0.10\n`, r.Stdout)
		assert.Contains(t, r.Stdout, "Your cluster builtin.k8s.local is ready\n")
		assert.Empty(t, r.Stderr)
	})

	// kops uses the kubeconfig's context named after the cluster, whatever the current one is; a
	// kubeconfig without one is used through its current context, with a warning.
	t.Run("the cluster's context", func(t *testing.T) {
		elsewhere := filepath.Join(t.TempDir(), "kubeconfig")
		kopsenv.WriteKubeconfig(t, env, elsewhere)
		nameContextAfter(t, elsewhere, c.name, true)
		r := validate("--kubeconfig", elsewhere)
		require.Equal(t, 0, r.Code, r.Stderr)
		assert.Empty(t, r.Stderr)

		plain := kopsenv.Kubeconfig(t, env)
		r = validate("--kubeconfig", plain)
		require.Equal(t, 0, r.Code, r.Stderr)
		assert.Equal(t, `W: the kubeconfig has no context named "builtin.k8s.local", the cluster's name; using its current context "e2e"`+"\n", r.Stderr)
	})

	t.Run("output formats", func(t *testing.T) {
		for _, format := range []string{"json", "yaml"} {
			r := validate("-o", format)
			require.Equal(t, 0, r.Code, r.Stderr)
			var got result
			if format == "json" {
				require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
			} else {
				require.NoError(t, yaml.UnmarshalStrict([]byte(r.Stdout), &got))
			}
			assert.Equal(t, "builtin.k8s.local", got.Cluster)
			assert.Equal(t, "built-in", got.DNS)
			assert.Equal(t, c.channel(), got.Channel)
			assert.Len(t, got.Checks, 4, "the two addons (default ServiceAccounts, CoreDNS), Deployment coredns, Service kube-dns")
			assert.Empty(t, got.failing())
			assert.NotContains(t, r.Stdout, "Your cluster", "machine output has no prose")
		}
		r := validate("-o", "xml")
		assert.Equal(t, 1, r.Code)
		assert.Contains(t, r.Stderr, `unknown output format "xml": use one of table, yaml, json`)

		// A failure in machine output: the document says what failed, stderr says it too.
		setDeploymentAvailable(t, "kube-system", "coredns", false)
		defer setDeploymentAvailable(t, "kube-system", "coredns", true)
		r = validate("-o", "json")
		assert.Equal(t, exitUnhealthy, r.Code)
		var got result
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
		assert.Equal(t, map[string]string{"Deployment kube-system/coredns": "not available: MinimumReplicasUnavailable Deployment does not have minimum availability."}, got.failing())
		assert.Contains(t, r.Stderr, "not healthy")
	})

	t.Run("missing addon record", func(t *testing.T) {
		saved := record(t, "kube-system", "coredns.addons.k8s.io")
		setRecord(t, "kube-system", "coredns.addons.k8s.io", "")
		defer setRecord(t, "kube-system", "coredns.addons.k8s.io", saved)
		r := validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stderr, "  Addon coredns.addons.k8s.io: not applied: no record addons.k8s.io/coredns.addons.k8s.io on namespace kube-system")
	})

	t.Run("stale hash", func(t *testing.T) {
		saved := record(t, "kube-system", "coredns.addons.k8s.io")
		stale := strings.Replace(saved, `"manifestHash":"`, `"manifestHash":"00000000000000`, 1)
		require.NotEqual(t, saved, stale)
		setRecord(t, "kube-system", "coredns.addons.k8s.io", stale)
		defer setRecord(t, "kube-system", "coredns.addons.k8s.io", saved)
		r := validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Regexp(t, `Addon coredns.addons.k8s.io: stale: applied manifest 000000000000, the channel has [0-9a-f]{12}`, r.Stderr)
	})

	t.Run("wrong Service IP", func(t *testing.T) {
		services := env.Clientset.CoreV1().Services("kube-system")
		ctx := context.Background()
		original, err := services.Get(ctx, "kube-dns", metav1.GetOptions{})
		require.NoError(t, err)
		recreate := func(ip string) {
			require.NoError(t, services.Delete(ctx, "kube-dns", metav1.DeleteOptions{}))
			s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "kube-dns", Namespace: "kube-system", Labels: original.Labels, Annotations: original.Annotations}, Spec: *original.Spec.DeepCopy()}
			s.Spec.ClusterIP, s.Spec.ClusterIPs = ip, nil
			_, err := services.Create(ctx, s, metav1.CreateOptions{})
			require.NoError(t, err)
		}
		recreate("100.64.0.53")
		defer recreate("100.64.0.10")
		r := validate()
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.Contains(t, r.Stderr, "  Service kube-system/kube-dns: clusterIP is 100.64.0.53, spec.kubeDNS.serverIP is 100.64.0.10: pods would not reach DNS")
	})

	t.Run("wait succeeds when the cluster becomes healthy", func(t *testing.T) {
		setDeploymentAvailable(t, "kube-system", "coredns", false)
		cmd := exec.Command(filepath.Join(bin, "kops"), "validate", "cluster", c.name, "--wait=2m", "--interval=100ms")
		cmd.Dir, cmd.Env = c.dir, c.env
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		var stdout strings.Builder
		cmd.Stdout = &stdout
		require.NoError(t, cmd.Start())
		lines := bufio.NewScanner(stderr)
		require.True(t, lines.Scan(), "a progress line")
		assert.Equal(t, "Validation 1 failed: 1 of 4 checks failing: Deployment kube-system/coredns; next in 100ms, 2m0s left", lines.Text())
		setDeploymentAvailable(t, "kube-system", "coredns", true) // the controller catches up
		for lines.Scan() {
			assert.Regexp(t, `^Validation \d+ failed: `, lines.Text())
		}
		require.NoError(t, cmd.Wait())
		assert.Contains(t, stdout.String(), "Your cluster builtin.k8s.local is ready\n")
	})

	t.Run("wait times out", func(t *testing.T) {
		setDeploymentAvailable(t, "kube-system", "coredns", false)
		defer setDeploymentAvailable(t, "kube-system", "coredns", true)
		r := validate("--wait=1s", "--interval=200ms")
		assert.Equal(t, exitUnhealthy, r.Code)
		assert.GreaterOrEqual(t, strings.Count(r.Stderr, " failed: 1 of 4 checks failing: Deployment kube-system/coredns; next in 200ms, "), 2, r.Stderr)
		assert.Contains(t, r.Stderr, `Error: cluster "builtin.k8s.local" is not healthy: 1 of 4 checks failed:`)
		assert.Contains(t, r.Stdout, "FAILED")
	})

	t.Run("no bootstrap channel", func(t *testing.T) {
		c.mustKops(t, "create", "cluster", "fresh.k8s.local", "--zones", "us-east-2a")
		r := c.run(t, "kops", "validate", "cluster", "fresh.k8s.local")
		assert.Equal(t, 1, r.Code)
		assert.Contains(t, r.Stderr, "no bootstrap channel at "+c.state+"/fresh.k8s.local/addons/bootstrap-channel.yaml: write it with 'kops update cluster --name fresh.k8s.local --yes'")
	})

	// What keeps kops from the API server is one error naming the server and the cause, the real
	// server's refusals included; no table of checks that all failed the same way.
	t.Run("unreachable server", func(t *testing.T) {
		authority := base64.StdEncoding.EncodeToString(env.Config.CAData)
		cases := []struct {
			name, server, user, want string
		}{
			{"nothing listens", "https://127.0.0.1:1", "{}", "GET /api: dial tcp 127.0.0.1:1: connect: connection refused"},
			{"credentials the server does not know", env.Config.Host, "{token: not-a-token}",
				"GET /api: the server refused the kubeconfig's credentials (401 Unauthorized)"},
			{"no credentials", env.Config.Host, "{}",
				`GET /api: the kubeconfig's user may not read the API (403 Forbidden): forbidden: User "system:anonymous" cannot get path "/api"`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				bad := filepath.Join(t.TempDir(), "kubeconfig")
				require.NoError(t, writeFile(bad, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \""+tc.server+
					"\", certificate-authority-data: "+authority+"}\nusers:\n- name: u\n  user: "+tc.user+
					"\ncontexts:\n- name: "+c.name+"\n  context: {cluster: c, user: u}\ncurrent-context: "+c.name+"\n"))
				r := validate("--kubeconfig", bad)
				assert.Equal(t, 1, r.Code)
				assert.Empty(t, r.Stdout)
				assert.True(t, strings.HasPrefix(r.Stderr, "Error: cannot validate against the API server "+tc.server+": "), r.Stderr)
				assert.Contains(t, r.Stderr, tc.want)
				assert.Equal(t, 1, strings.Count(r.Stderr, tc.server), r.Stderr)
			})
		}
	})
}

func TestValidateOperator(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	c := newCluster(t, bin, "operator.k8s.local", "ClusterAddons,UseAddonOperators")
	validate := func(args ...string) kopsenv.Run {
		return c.run(t, "kops", append([]string{"validate", "cluster", c.name}, args...)...)
	}

	r := validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	var got result
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got))
	assert.Equal(t, "operator", got.DNS)
	// What the operator manages is checked too: Deployment coredns, which no operator creates here
	// (an earlier test's built-in CoreDNS may have left one).
	failing := got.failing()
	managed := false
	for _, check := range got.Checks {
		managed = managed || check.Kind+" "+check.Name == "Deployment kube-system/coredns"
	}
	assert.True(t, managed, "Deployment kube-system/coredns is checked")
	delete(failing, "Deployment kube-system/coredns")
	assert.Equal(t, map[string]string{
		"Deployment coredns-operator-system/coredns-operator": "not available: generation 1 not yet observed by its controller",
		"CoreDNS kube-system/coredns":                         "not healthy: the operator has not reported status yet",
	}, failing)
	var addons []string
	for _, check := range got.Checks {
		if check.Kind == "Addon" {
			assert.True(t, check.OK, check.Message)
			addons = append(addons, check.Name)
		}
	}
	assert.Equal(t, []string{"serviceaccount-defaults.addons.k8s.io", "coredns-rbac.addons.k8s.io", "coredns-scaling.addons.k8s.io", "operator.coredns.addons.x-k8s.io", "coredns.addons.x-k8s.io"}, addons)

	setDeploymentAvailable(t, "coredns-operator-system", "coredns-operator", true)
	createDeployment(t, "kube-system", "coredns")
	setDeploymentAvailable(t, "kube-system", "coredns", true)
	setCoreDNSStatus(t, false, "waiting for Deployment coredns")
	r = validate()
	assert.Equal(t, exitUnhealthy, r.Code)
	assert.Contains(t, r.Stderr, "  CoreDNS kube-system/coredns: not healthy: waiting for Deployment coredns")

	setCoreDNSStatus(t, true)
	r = validate()
	require.Equal(t, 0, r.Code, r.Stderr)
	assert.Contains(t, r.Stdout, "(DNS: operator)")
	assert.Regexp(t, `CoreDNS +kube-system/coredns +OK +healthy\n`, r.Stdout)
	assert.Contains(t, r.Stdout, "Your cluster operator.k8s.local is ready\n")
}
