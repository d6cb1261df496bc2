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
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// TestValidateThroughExecPlugin runs `kops validate cluster` and `channels apply` with a
// kubeconfig whose user is an exec plugin, against the real API server: a plugin answering with
// a client certificate (as Teleport's tsh does) is taken as kubectl takes it, presented in the
// handshake, and the server knows the user by it (validate reads the cluster and finds CoreDNS not
// yet rolled out, as no controller runs here; the shared Deployment's status is left to the other
// tests); one answering with a token the server does not know is refused by the server.
func TestValidateThroughExecPlugin(t *testing.T) {
	bin := t.TempDir()
	kopsBin := kopsenv.BuildCommands(t, "kops", "channels")
	c := newCluster(t, kopsBin, "exec.k8s.local", "")
	require.NotEmpty(t, env.Config.CertData, "the test server's admin is a client certificate")

	credential := func(status map[string]string) string {
		doc, err := json.Marshal(map[string]any{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": status})
		require.NoError(t, err)
		return string(doc)
	}
	tests := []struct {
		name, answer string
		wantCode     int
		wantStderr   string
	}{
		{"a client certificate", credential(map[string]string{
			"clientCertificateData": string(env.Config.CertData), "clientKeyData": string(env.Config.KeyData),
		}), exitUnhealthy, "is not healthy"},
		{"a token the server does not know", credential(map[string]string{"token": "not-a-token"}), 1, "Unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := filepath.Join(bin, "answer.json")
			require.NoError(t, os.WriteFile(answer, []byte(tt.answer), 0o600))
			plugin := filepath.Join(bin, "plugin")
			require.NoError(t, os.WriteFile(plugin, []byte("#!/bin/sh\nexec cat "+answer+"\n"), 0o700))
			kubeconfig := execKubeconfig(t, plugin, c.name)

			r := c.run(t, "kops", "validate", "cluster", c.name, "--kubeconfig", kubeconfig)
			assert.Equal(t, tt.wantCode, r.Code, "stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			assert.Contains(t, r.Stderr, tt.wantStderr)
			r = c.run(t, "channels", "apply", "channel", c.channel(), "--yes", "--kubeconfig", kubeconfig)
			if tt.wantCode == exitUnhealthy {
				assert.Equal(t, 0, r.Code, "channels apply: stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
				return
			}
			assert.Equal(t, tt.wantCode, r.Code, "channels apply: stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			assert.Contains(t, r.Stderr, tt.wantStderr)
		})
	}
}

// execKubeconfig is the test server's kubeconfig with its user replaced by the exec plugin, its
// context named after the cluster.
func execKubeconfig(t *testing.T, plugin, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	config := clientcmdapi.NewConfig()
	config.Clusters[name] = &clientcmdapi.Cluster{Server: env.Config.Host, CertificateAuthorityData: env.Config.CAData}
	config.AuthInfos[name] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1", Command: plugin, InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
	}}
	config.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	config.CurrentContext = name
	require.NoError(t, clientcmd.WriteToFile(*config, path))
	return path
}
