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

package kubeconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

func writeKubeconfig(t *testing.T, path, server string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: `+server+`
users:
- name: u
  user:
    token: t
contexts:
- name: x
  context:
    cluster: c
    user: u
current-context: x
`), 0o600))
}

func TestRESTConfig(t *testing.T) {
	dir := t.TempDir()
	explicit := filepath.Join(dir, "explicit")
	fromEnv := filepath.Join(dir, "env")
	home := filepath.Join(dir, "home")
	writeKubeconfig(t, explicit, "https://explicit:6443")
	writeKubeconfig(t, fromEnv, "https://env:6443")
	writeKubeconfig(t, filepath.Join(home, ".kube", "config"), "https://home:6443")

	cases := []struct {
		name     string
		explicit string
		env      map[string]string
		want     string
	}{
		{"flag first", explicit, map[string]string{"KUBECONFIG": fromEnv, "HOME": home}, "https://explicit:6443"},
		{"then KUBECONFIG", "", map[string]string{"KUBECONFIG": fromEnv, "HOME": home}, "https://env:6443"},
		{"then ~/.kube/config", "", map[string]string{"HOME": home}, "https://home:6443"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := RESTConfig(tc.explicit, tc.env)
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Host)
		})
	}

	_, err := RESTConfig(filepath.Join(dir, "missing"), nil)
	require.EqualError(t, err, "kubeconfig "+filepath.Join(dir, "missing")+" does not exist")
	_, err = RESTConfig("", map[string]string{"KUBECONFIG": filepath.Join(dir, "a") + ":" + filepath.Join(dir, "b")})
	require.ErrorContains(t, err, "no kubeconfig: none of KUBECONFIG's files exists")
	_, err = RESTConfig("", map[string]string{"HOME": filepath.Join(dir, "nohome")})
	require.EqualError(t, err, "no kubeconfig: --kubeconfig is not given, KUBECONFIG is not set and ~/.kube/config does not exist (nor is this a pod in a cluster)")
}

// TestRESTConfigContext: the context named after the cluster is preferred; without one the
// current context is used, with a warning; a kubeconfig without a context to use says so plainly
// (client-go says "no configuration has been provided, try setting KUBERNETES_MASTER").
func TestRESTConfigContext(t *testing.T) {
	dir := t.TempDir()
	two := filepath.Join(dir, "two")
	require.NoError(t, os.WriteFile(two, []byte(`apiVersion: v1
kind: Config
clusters:
- {name: a, cluster: {server: "https://a:6443"}}
- {name: b, cluster: {server: "https://b:6443"}}
users:
- {name: u, user: {token: t}}
contexts:
- {name: other, context: {cluster: a, user: u}}
- {name: b.k8s.local, context: {cluster: b, user: u}}
current-context: other
`), 0o600))
	c, warning, err := RESTConfigFor(two, nil, "b.k8s.local")
	require.NoError(t, err)
	assert.Equal(t, "https://b:6443", c.Host, "the cluster's own context, not the current one")
	assert.Empty(t, warning)

	c, warning, err = RESTConfigFor(two, nil, "c.k8s.local")
	require.NoError(t, err)
	assert.Equal(t, "https://a:6443", c.Host)
	assert.Equal(t, `the kubeconfig has no context named "c.k8s.local", the cluster's name; using its current context "other"`, warning)

	c, warning, err = RESTConfigFor(two, nil, "")
	require.NoError(t, err)
	assert.Equal(t, "https://a:6443", c.Host)
	assert.Empty(t, warning)

	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	noCurrent := filepath.Join(dir, "no-current")
	require.NoError(t, os.WriteFile(noCurrent, []byte("apiVersion: v1\nkind: Config\ncontexts:\n- {name: x, context: {cluster: a}}\n"), 0o600))
	badCurrent := filepath.Join(dir, "bad-current")
	require.NoError(t, os.WriteFile(badCurrent, []byte("apiVersion: v1\nkind: Config\ncontexts:\n- {name: x, context: {cluster: a}}\ncurrent-context: nope\n"), 0o600))
	for file, want := range map[string]string{
		empty:      "kubeconfig " + empty + " has no contexts: it names no cluster to talk to",
		noCurrent:  "kubeconfig " + noCurrent + " has no current context (its contexts: x): choose one with 'kubectl config use-context NAME'",
		badCurrent: "kubeconfig " + badCurrent + `: its current context "nope" is not one of its contexts (x)`,
	} {
		_, _, err := RESTConfigFor(file, nil, "")
		assert.EqualError(t, err, want)
	}
}

// TestRESTConfigMergesAsKubectl: of a KUBECONFIG list the first file to name a cluster, user or
// context wins, and so does its current-context; missing files are skipped; relative paths are
// relative to the file that holds them.
func TestRESTConfigMergesAsKubectl(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	writeKubeconfig(t, first, "https://first:6443")
	second := filepath.Join(dir, "sub", "second")
	require.NoError(t, os.MkdirAll(filepath.Dir(second), 0o755))
	require.NoError(t, os.WriteFile(second, []byte(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://second:6443"}
- name: other
  cluster: {server: "https://other:6443", certificate-authority: ca.crt}
users:
- name: u
  user: {token: second}
contexts:
- name: ctx-y
  context: {cluster: other, user: u}
current-context: ctx-y
`), 0o600))
	missing := filepath.Join(dir, "missing")
	list := strings.Join([]string{missing, first, second}, string(filepath.ListSeparator))

	c, err := RESTConfig("", map[string]string{"KUBECONFIG": list})
	require.NoError(t, err)
	assert.Equal(t, "https://first:6443", c.Host, "the first file's current-context and cluster")
	assert.Equal(t, "t", c.BearerToken)

	merged, err := resolve([]string{missing, first, second})
	require.NoError(t, err, "a missing file of a context not in use is not read, as with kubectl")
	assert.Equal(t, "https://first:6443", merged.Clusters["c"].Server)
	assert.Contains(t, merged.Contexts, "ctx-y")

	// Side by side with client-go's own loading rules, which read the same regular files unbounded:
	// the merge is theirs.
	ours, err := load([]string{missing, first, second}, false)
	require.NoError(t, err)
	theirs, err := (&clientcmd.ClientConfigLoadingRules{Precedence: []string{missing, first, second}}).Load()
	require.NoError(t, err)
	assert.Equal(t, theirs.CurrentContext, ours.CurrentContext)
	assert.Equal(t, theirs.Clusters, ours.Clusters)
	assert.Equal(t, theirs.AuthInfos, ours.AuthInfos)
	assert.Equal(t, theirs.Contexts, ours.Contexts)

	_, err = resolve([]string{second})
	assert.ErrorContains(t, err, "reading the certificate-authority: open "+filepath.Join(dir, "sub", "ca.crt"), "relative to its file")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "ca.crt"), []byte("PEM"), 0o600))
	merged, err = resolve([]string{second})
	require.NoError(t, err)
	assert.Equal(t, "PEM", string(merged.Clusters["other"].CertificateAuthorityData), "read through the bounded read, in place")
}

// resolve is what RESTConfigFor does before client-go builds the rest.Config: load the files, choose
// the current context, inline the files it names.
func resolve(files []string) (*clientcmdapi.Config, error) {
	merged, err := load(files, false)
	if err != nil {
		return nil, err
	}
	context, _, err := chooseContext(merged, strings.Join(files, ":"), "")
	if err != nil {
		return nil, err
	}
	return merged, inlineFiles(merged, context)
}

// TestRESTConfigRefusesSpecialFiles: a kubeconfig that is a device or a FIFO without a writer
// fails at once (it once grew memory without bound, or blocked on open); a pipe with a writer
// (--kubeconfig <(...)) is read.
func TestRESTConfigRefusesSpecialFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("devices, FIFOs and /proc/self/fd")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for name, path := range map[string]string{"/dev/zero": "/dev/zero", "a FIFO without a writer": fifo} {
		t.Run(name, func(t *testing.T) {
			for _, env := range []map[string]string{nil, {"KUBECONFIG": path}} {
				explicit := path
				if env != nil {
					explicit = ""
				}
				done := make(chan error, 1)
				go func() {
					_, err := RESTConfig(explicit, env)
					done <- err
				}()
				select {
				case err := <-done:
					assert.Error(t, err)
				case <-time.After(time.Minute): // a guard against a hang, not a speed check
					t.Fatal("RESTConfig hung")
				}
			}
		})
	}
	t.Run("a pipe with a writer", func(t *testing.T) {
		src := filepath.Join(t.TempDir(), "config")
		writeKubeconfig(t, src, "https://piped:6443")
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		r, w, err := os.Pipe()
		require.NoError(t, err)
		defer func() { _ = r.Close() }()
		go func() {
			_, _ = w.Write(data)
			_ = w.Close() // the reader sees EOF; the test checks what it read
		}()
		c, err := RESTConfig(fmt.Sprintf("/proc/self/fd/%d", r.Fd()), nil)
		require.NoError(t, err)
		assert.Equal(t, "https://piped:6443", c.Host)
	})
}

// TestRESTConfigBoundsTheFilesAKubeconfigNames: a token file, certificate or key that is a device
// is refused at once instead of being read by client-go without end.
func TestRESTConfigBoundsTheFilesAKubeconfigNames(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/dev/zero")
	}
	for _, field := range []string{"tokenFile", "client-certificate", "client-key"} {
		t.Run(field, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config")
			require.NoError(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://h:6443", certificate-authority: /dev/zero}
users:
- name: u
  user: {`+field+`: /dev/zero}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`), 0o600))
			_, err := RESTConfig(path, nil)
			assert.ErrorContains(t, err, "not a regular file (a device)")
		})
	}
	t.Run("a token file is read in place", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "token"), []byte("secret\n"), 0o600))
		path := filepath.Join(dir, "config")
		require.NoError(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters:
- {name: c, cluster: {server: "https://h:6443"}}
users:
- {name: u, user: {tokenFile: token}}
contexts:
- {name: x, context: {cluster: c, user: u}}
current-context: x
`), 0o600))
		c, err := RESTConfig(path, nil)
		require.NoError(t, err)
		assert.Equal(t, "secret", c.BearerToken)
		assert.Empty(t, c.BearerTokenFile)
	})
}

func TestForCLI(t *testing.T) {
	in := &rest.Config{Host: "https://h"}
	c := ForCLI(in, 0)
	assert.Equal(t, float32(DefaultQPS), c.QPS)
	assert.Equal(t, DefaultBurst, c.Burst)
	assert.Equal(t, DefaultRequestTimeout, c.Timeout)
	assert.Zero(t, in.QPS, "the input is not modified")

	c = ForCLI(&rest.Config{QPS: 500, Burst: 1000}, 5*time.Second)
	assert.Equal(t, float32(500), c.QPS, "a higher limit is kept")
	assert.Equal(t, 1000, c.Burst)
	assert.Equal(t, 5*time.Second, c.Timeout)
}

// TestRESTConfigNamesFileAndContext: a chosen context whose cluster is not defined is reported
// with the file, the context and the cluster (client-go would say "try setting KUBERNETES_MASTER"),
// and so is what client-go refuses in it.
func TestRESTConfigNamesFileAndContext(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config")
	require.NoError(t, os.WriteFile(file, []byte("apiVersion: v1\nkind: Config\ncontexts:\n- {name: x, context: {cluster: a}}\ncurrent-context: x\n"), 0o600))
	_, _, err := RESTConfigFor(file, nil, "")
	require.Error(t, err)
	assert.EqualError(t, err, fmt.Sprintf(`kubeconfig %s: context "x" names cluster "a", which has no server there`, file))

	require.NoError(t, os.WriteFile(file, []byte("apiVersion: v1\nkind: Config\nclusters:\n- {name: a, cluster: {server: \"https://a:6443\"}}\ncontexts:\n- {name: x, context: {cluster: a, user: u}}\ncurrent-context: x\nusers:\n- {name: u, user: {token: t, username: v}}\n"), 0o600))
	_, _, err = RESTConfigFor(file, nil, "")
	require.Error(t, err)
	assert.ErrorContains(t, err, fmt.Sprintf(`kubeconfig %s, context "x": `, file))
	assert.ErrorContains(t, err, "more than one authentication method")
}
