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
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/channels/pkg/api"
)

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: a
  cluster: {server: "https://a.example.com:6443"}
- name: b
  cluster: {server: "https://b.example.com:6443"}
users:
- name: u
  user: {token: t}
contexts:
- name: a
  context: {cluster: a, user: u}
- name: b
  context: {cluster: b, user: u}
current-context: %s
`

func writeKubeconfig(t *testing.T, dir, current string) string {
	p := filepath.Join(dir, current+".kubeconfig")
	require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf(kubeconfig, current)), 0o600))
	return p
}

func TestRestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	a, b := writeKubeconfig(t, dir, "a"), writeKubeconfig(t, dir, "b")
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".kube"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".kube", "config"), []byte(fmt.Sprintf(kubeconfig, "b")), 0o600))

	cases := []struct {
		name, flag string
		env        map[string]string
		host       string
	}{
		{"flag wins", a, map[string]string{"KUBECONFIG": b, "HOME": home}, "https://a.example.com:6443"},
		{"KUBECONFIG next", "", map[string]string{"KUBECONFIG": a, "HOME": home}, "https://a.example.com:6443"},
		{"then ~/.kube/config", "", map[string]string{"HOME": home}, "https://b.example.com:6443"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := restConfig(tc.flag, tc.env)
			require.NoError(t, err)
			assert.Equal(t, tc.host, cfg.Host)
		})
	}

	_, err := restConfig(filepath.Join(dir, "missing"), nil)
	assert.EqualError(t, err, "kubeconfig "+filepath.Join(dir, "missing")+" does not exist")
	_, err = restConfig("", map[string]string{"HOME": t.TempDir()})
	assert.EqualError(t, err, "no kubeconfig: --kubeconfig is not given, KUBECONFIG is not set and ~/.kube/config does not exist (nor is this a pod in a cluster)")
}

func TestRunReportsErrors(t *testing.T) {
	cases := []struct {
		name, location, want string
	}{
		{"unsupported scheme", "gs://bucket/c/addons/bootstrap-channel.yaml", `uses scheme "gs", which is not supported by this build`},
		// channels reads no S3 settings yet: an s3:// channel is refused saying so, before any request.
		// channels has no --state: the message for an empty location is its own.
		{"empty location", "", "Error: no channel given: LOCATION is empty; give the bootstrap channel's file:// URL or path, " +
			"e.g. channels apply channel file:///srv/kops-state/my.example.com/addons/bootstrap-channel.yaml\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"apply", "channel", tc.location, "--kubeconfig", writeKubeconfig(t, t.TempDir(), "a")}, nil, &out, &errOut)
			assert.Equal(t, 1, code)
			assert.Contains(t, errOut.String(), tc.want)
			assert.NotContains(t, errOut.String(), "--state")
		})
	}
}

// channelDir writes a bootstrap channel with one addon per name (a ConfigMap each) and returns its
// location.
func channelDir(t *testing.T, names ...string) string {
	dir := t.TempDir()
	channel := api.NewAddons("bootstrap")
	for _, name := range names {
		manifest := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: kube-system\n")
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "v1.yaml"), manifest, 0o644))
		channel.Spec.Addons = append(channel.Spec.Addons, api.AddonSpec{Name: name, ID: "v1", Manifest: name + "/v1.yaml", ManifestHash: api.ManifestHash(manifest)})
	}
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bootstrap-channel.yaml"), data, 0o644))
	return "file://" + filepath.Join(dir, "bootstrap-channel.yaml")
}

// tlsServer is an API server that completes TLS and then answers only what answer handles; any
// other request is left hanging until the client gives up. It returns a kubeconfig for it and
// the number of requests it received.
func tlsServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request) bool) (string, *atomic.Int32) {
	var requests atomic.Int32
	stop := make(chan struct{})
	server := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if answer != nil && answer(w, r) {
			return
		}
		select { // never answer; the client's timeout ends the request
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	require.NoError(t, server.Listener.Close())
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	server.Listener = listener
	server.StartTLS()
	t.Cleanup(server.Close)
	t.Cleanup(func() { close(stop) }) // runs first: a hung client must not block Close
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw})
	p := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"hung": {Server: server.URL, CertificateAuthorityData: ca}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"u": {Token: "t"}},
		Contexts:       map[string]*clientcmdapi.Context{"hung": {Cluster: "hung", AuthInfo: "u"}},
		CurrentContext: "hung",
	}, p))
	return p, &requests
}

// noRecords answers the records' read: kube-system has no annotations.
func noRecords(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || r.URL.Path != "/api/v1/namespaces/kube-system" {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprint(w, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system"}}`)
	return true
}

// runBounded runs the command and fails the test if it has not returned after a minute: without
// bounds the command would hang far longer against these servers.
func runBounded(t *testing.T, args ...string) (int, string) {
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var out bytes.Buffer
		code := run(context.Background(), args, nil, &out, &out)
		done <- result{code, out.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(time.Minute):
		t.Fatalf("channels %v hangs", args)
		return 0, ""
	}
}

// A server that completes TLS and never answers fails the run within the request timeout, and the
// error names the addon and the object in flight; the addons after it are not tried.
func TestRequestTimeout(t *testing.T) {
	location := channelDir(t, "first.addons.k8s.io", "second.addons.k8s.io")

	t.Run("hangs after the records were read", func(t *testing.T) {
		kubeconfig, requests := tlsServer(t, noRecords)
		code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig, "--request-timeout", "300ms")
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "first.addons.k8s.io: ConfigMap kube-system/first.addons.k8s.io:")
		assert.Contains(t, out, "the API server did not answer in time")
		assert.Contains(t, out, "second.addons.k8s.io: not tried: the API server did not answer")
		assert.LessOrEqual(t, int(requests.Load()), 4, "one records read, discovery, then the run stops")
	})
	t.Run("hangs from the first request", func(t *testing.T) {
		kubeconfig, _ := tlsServer(t, nil)
		code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig, "--request-timeout", "300ms")
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "reading the addon records on namespace kube-system")
	})
	t.Run("the whole run is bounded too", func(t *testing.T) {
		kubeconfig, _ := tlsServer(t, noRecords)
		code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig, "--request-timeout", "0", "--timeout", "300ms")
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "first.addons.k8s.io: ConfigMap kube-system/first.addons.k8s.io:")
		assert.Contains(t, out, "the run did not finish within --timeout=300ms")
	})
	t.Run("negative timeouts are refused", func(t *testing.T) {
		code, out := runBounded(t, "apply", "channel", location, "--request-timeout", "-1s")
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "must not be negative")
	})
}

// An invalid channel is refused before the cluster is contacted: nothing is applied.
func TestInvalidChannelSendsNothing(t *testing.T) {
	location := channelDir(t, "a", "a")
	kubeconfig, requests := tlsServer(t, noRecords)
	code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "is invalid; nothing was applied")
	assert.Contains(t, out, `bootstrap-channel.yaml:13: spec.addons[1].name: Duplicate value: "a (also spec.addons[0])"`)
	assert.Zero(t, requests.Load())
}

// A manifest holding one object twice (the later would win: a policy binding's Deny turned to
// Audit) is refused with its file, line and documents before the cluster is contacted.
func TestDuplicateObjectSendsNothing(t *testing.T) {
	location := channelDir(t, "a")
	dir := filepath.Dir(strings.TrimPrefix(location, "file://"))
	binding := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: scope\nspec:\n  policyName: scope\n  validationActions: [%s]\n"
	manifest := []byte(fmt.Sprintf(binding, "Deny") + "---\n" + fmt.Sprintf(binding, "Audit"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "v1.yaml"), manifest, 0o644))
	channel := api.NewAddons("bootstrap")
	channel.Spec.Addons = []api.AddonSpec{{Name: "a", ID: "v1", Manifest: "a/v1.yaml", ManifestHash: api.ManifestHash(manifest)}}
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bootstrap-channel.yaml"), data, 0o644))

	kubeconfig, requests := tlsServer(t, noRecords)
	code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "is invalid; nothing was applied")
	assert.Contains(t, out, filepath.Join(dir, "a", "v1.yaml")+":9: document 2: ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io scope is also document 1")
	assert.Zero(t, requests.Load())
}

// A channel file of two documents, and manifests with names or namespaces the API server would
// refuse, are refused before the cluster is contacted: the server sees no request at all. Before,
// the second document was ignored, and the bad objects failed at the server after the addons
// before them had been applied.
func TestUnreadableChannelSendsNothing(t *testing.T) {
	cases := []struct {
		name string
		// change rewrites the channel folder made by channelDir(t, "a", "b").
		change func(t *testing.T, dir string)
		want   func(t *testing.T, dir string) []string
	}{
		{
			name: "a second document in the channel",
			change: func(t *testing.T, dir string) {
				file := filepath.Join(dir, "bootstrap-channel.yaml")
				data, err := os.ReadFile(file)
				require.NoError(t, err)
				second := "---\nkind: Addons\nmetadata:\n  name: other\nspec:\n  addons: []\n"
				require.NoError(t, os.WriteFile(file, append(data, second...), 0o644))
			},
			want: func(t *testing.T, dir string) []string {
				// The second document's first line follows the --- line.
				data, err := os.ReadFile(filepath.Join(dir, "bootstrap-channel.yaml"))
				require.NoError(t, err)
				second := strings.Count(string(data[:strings.Index(string(data), "---\n")]), "\n") + 2
				return []string{fmt.Sprintf("%s:%d: document 2 of 2: a channel file is exactly one YAML document", filepath.Join(dir, "bootstrap-channel.yaml"), second)}
			},
		},
		{
			name: "an empty channel",
			change: func(t *testing.T, dir string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "bootstrap-channel.yaml"), []byte("---\n# nothing yet\n"), 0o644))
			},
			want: func(t *testing.T, dir string) []string {
				return []string{filepath.Join(dir, "bootstrap-channel.yaml") + ": the file holds no YAML document"}
			},
		},
		{
			name: "bad object names and namespaces",
			change: func(t *testing.T, dir string) {
				replaceManifest(t, dir, "b", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ../x\n  namespace: Bad NS\n")
			},
			want: func(t *testing.T, dir string) []string {
				manifest := filepath.Join(dir, "b", "v1.yaml")
				return []string{
					"spec.addons[1] (b): file://" + manifest + `:4: document 1 (ConfigMap Bad NS/../x): metadata.name: Invalid value: "../x"`,
					manifest + `:5: document 1 (ConfigMap Bad NS/../x): metadata.namespace: Invalid value: "Bad NS"`,
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			location := channelDir(t, "a", "b")
			dir := filepath.Dir(strings.TrimPrefix(location, "file://"))
			tc.change(t, dir)
			kubeconfig, requests := tlsServer(t, noRecords)
			// The short timeout only matters when requests are sent, which is the failure.
			code, out := runBounded(t, "apply", "channel", location, "--yes", "--kubeconfig", kubeconfig, "--request-timeout", "300ms")
			assert.Equal(t, 1, code)
			assert.Contains(t, out, "is invalid; nothing was applied")
			for _, w := range tc.want(t, dir) {
				assert.Contains(t, out, w)
			}
			assert.Zero(t, requests.Load(), "the server sees no request")
		})
	}
}

// replaceManifest gives addon name of a channelDir folder a new manifest, and the channel its hash.
func replaceManifest(t *testing.T, dir, name, manifest string) {
	file := filepath.Join(dir, name, "v1.yaml")
	old, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(manifest), 0o644))
	channelFile := filepath.Join(dir, "bootstrap-channel.yaml")
	channel, err := os.ReadFile(channelFile)
	require.NoError(t, err)
	require.Contains(t, string(channel), api.ManifestHash(old))
	channel = bytes.ReplaceAll(channel, []byte(api.ManifestHash(old)), []byte(api.ManifestHash([]byte(manifest))))
	require.NoError(t, os.WriteFile(channelFile, channel, 0o644))
}
