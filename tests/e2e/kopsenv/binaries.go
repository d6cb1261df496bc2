package kopsenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/tests/e2e/framework"
)

// Build compiles a command of the repository (./cmd/kops, ./cmd/channels) into a temporary folder,
// as a user builds it, and returns the binary's path.
func Build(t testing.TB, pkg string) string {
	binary := filepath.Join(t.TempDir(), filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", binary, pkg)
	build.Dir = RepoRoot(t)
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building %s: %s", pkg, out)
	return binary
}

// WriteKubeconfig writes a kubeconfig file for the test server's admin and returns its path.
func WriteKubeconfig(t testing.TB, env *framework.Env) string {
	p := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"e2e": {Server: env.Config.Host, CertificateAuthorityData: env.Config.CAData}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"admin": {ClientCertificateData: env.Config.CertData, ClientKeyData: env.Config.KeyData, Token: env.Config.BearerToken}},
		Contexts:       map[string]*clientcmdapi.Context{"e2e": {Cluster: "e2e", AuthInfo: "admin"}},
		CurrentContext: "e2e",
	}, p))
	return p
}

// Run executes a binary with args and the given extra environment (KUBECONFIG and
// KOPS_FEATURE_FLAGS are cleared unless given), returning stdout and stderr.
func Run(binary string, env []string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = append(append(os.Environ(), "KUBECONFIG=", "KOPS_FEATURE_FLAGS="), env...)
	var out, errOut limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

var responseLine = regexp.MustCompile(`(?m)"Response" verb=`)

// CountResponses is how many requests client-go logged at -v=6: one "Response" line each.
func CountResponses(stderr string) int {
	return len(responseLine.FindAllStringIndex(stderr, -1))
}

// limitedBuffer keeps what a command writes, up to 16 MB.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if len(l.b) < 16<<20 {
		l.b = append(l.b, p...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
