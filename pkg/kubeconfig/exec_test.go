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
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
// assertion. A plugin that answers puts its token on the request, or its client certificate in
// the TLS handshake (as Teleport's tsh answers); a broken answer is named.
func TestExecPluginIsBounded(t *testing.T) {
	if !procgroup.Supported {
		t.Skip("no process groups here")
	}
	var gotAuth, gotCert string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		if len(r.TLS.PeerCertificates) > 0 {
			gotCert = r.TLS.PeerCertificates[0].Subject.CommonName
		}
		_, _ = fmt.Fprint(w, `{}`)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	defer srv.Close()
	certPEM, keyPEM := clientCertificate(t, "tsh-user")
	otherCertPEM, _ := clientCertificate(t, "other")
	jsonString := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	certCredential := `{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"clientCertificateData": ` +
		jsonString(certPEM) + `, "clientKeyData": ` + jsonString(keyPEM) + `}}`
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	credential := `{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"token": "from-the-plugin"}}`
	tests := []struct {
		name, script       string
		wantErr            string
		wantAuth, wantCert string
	}{
		{name: "answers", script: "echo '" + credential + "'", wantAuth: "Bearer from-the-plugin"},
		{name: "a certificate", script: "cat <<'EOF'\n" + certCredential + "\nEOF", wantCert: "tsh-user"},
		{name: "endless output", script: "yes", wantErr: "the kubeconfig exec plugin " + filepath.Join(dir, "plugin") + " printed more than its bound (1048576 bytes)"},
		{name: "never answers, nor its child", script: "sleep 60 & echo $! > " + pidFile + "; wait", wantErr: "did not answer by its deadline; it was killed with every process it started"},
		{name: "a child keeps the output open", script: "sleep 60 & echo $! > " + pidFile + "; echo '" + credential + "'",
			wantErr: "exited, but a process it started kept its output open; it was killed"},
		{name: "a certificate without its key", script: "cat <<'EOF'\n" + strings.Replace(certCredential, `"clientKeyData"`, `"other"`, 1) + "\nEOF",
			wantErr: "answered with a client certificate but no key"},
		{name: "a certificate and a key of another", script: "cat <<'EOF'\n" + strings.Replace(certCredential, jsonString(certPEM), jsonString(otherCertPEM), 1) + "\nEOF",
			wantErr: "answered with a client certificate and key that do not make a pair"},
		{name: "nothing", script: `echo '{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {}}'`,
			wantErr: "answered with neither a token nor a client certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotAuth, gotCert = "", ""
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
				assert.Equal(t, tt.wantAuth, gotAuth)
				assert.Equal(t, tt.wantCert, gotCert)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Empty(t, gotAuth, "no request without the plugin's credential")
			assert.Empty(t, gotCert, "no request without the plugin's credential")
			procgrouptest.AssertChildGone(t, pidFile)
		})
	}
}

// clientCertificate makes a self-signed client certificate for commonName, PEM encoded.
func clientCertificate(t *testing.T, commonName string) (certPEM, keyPEM string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: commonName},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
}
