package kubeconfig

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
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
	require.ErrorContains(t, err, "loading kubeconfig")
	_, err = RESTConfig("", map[string]string{"HOME": filepath.Join(dir, "nohome")})
	require.ErrorContains(t, err, "no kubeconfig (--kubeconfig, KUBECONFIG or ~/.kube/config)")
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
