package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.ErrorContains(t, err, "loading kubeconfig")
	_, err = restConfig("", map[string]string{"HOME": t.TempDir()})
	assert.ErrorContains(t, err, "no kubeconfig (--kubeconfig, KUBECONFIG or ~/.kube/config) and not running in a cluster")
}

func TestRunReportsErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"apply", "channel", "s3://bucket/c/addons/bootstrap-channel.yaml", "--kubeconfig", writeKubeconfig(t, t.TempDir(), "a")}, nil, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), `uses scheme "s3", which is not supported by this build`)
}
