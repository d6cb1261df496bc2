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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"

	"k8s.io/kops/util/pkg/procgroup"
	"k8s.io/kops/util/pkg/procgroup/procgrouptest"
)

// TestExecPluginIsBounded: a kubeconfig's exec plugin runs bounded by the request's deadline, in
// its own process group, its output capped: an endless printer, one that never answers and one
// whose child holds its output each end the request with their own error, and the plugin's
// children are gone. The deadline (--request-timeout 3s) is generous: a timeout, not a speed
// assertion. A plugin that answers puts its token on the request.
func TestExecPluginIsBounded(t *testing.T) {
	if !procgroup.Supported {
		t.Skip("no process groups here")
	}
	var gotAuth string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		_, _ = fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	credential := `{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"token": "from-the-plugin"}}`
	tests := []struct {
		name, script string
		wantErr      string
	}{
		{"answers", "echo '" + credential + "'", ""},
		{"endless output", "yes", "the kubeconfig exec plugin " + filepath.Join(dir, "plugin") + " printed more than its bound (1048576 bytes)"},
		{"never answers, nor its child", "sleep 60 & echo $! > " + pidFile + "; wait", "did not answer by its deadline; it was killed with every process it started"},
		{"a child keeps the output open", "sleep 60 & echo $! > " + pidFile + "; echo '" + credential + "'",
			"exited, but a process it started kept its output open; it was killed"},
		{"a certificate", `echo '{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"clientCertificateData": "x", "clientKeyData": "y"}}'`,
			"answered with no token (a client certificate, or nothing); kops takes tokens only from exec plugins"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotAuth = ""
			_ = os.Remove(pidFile)
			plugin := filepath.Join(dir, "plugin")
			require.NoError(t, os.WriteFile(plugin, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o700))
			path := filepath.Join(dir, "kubeconfig")
			require.NoError(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: `+srv.URL+`
    insecure-skip-tls-verify: true
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: `+plugin+`
      interactiveMode: Never
contexts:
- name: x
  context:
    cluster: c
    user: u
current-context: x
`), 0o600))
			config, err := RESTConfig(path, map[string]string{"PATH": "/usr/bin:/bin"})
			require.NoError(t, err)
			client, err := rest.HTTPClientFor(ForCLI(config, 3*time.Second))
			require.NoError(t, err)
			resp, err := client.Get(srv.URL + "/api")
			if err == nil {
				_ = resp.Body.Close()
			}
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, "Bearer from-the-plugin", gotAuth)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Empty(t, gotAuth, "no request without the plugin's token")
			procgrouptest.AssertChildGone(t, pidFile)
		})
	}
}
