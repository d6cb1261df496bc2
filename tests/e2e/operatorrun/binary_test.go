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

package operatorrun

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// syncBuffer is stderr of a running process, read while it writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddress(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// TestBinaryServesProbesAndStopsOnSIGTERM runs the built coredns-operator binary with a kubeconfig
// holding only its ServiceAccount's token: it reconciles, answers /healthz and /readyz, logs no
// 403 response (client-go logs every response at -v=6), and on SIGTERM releases its lease and
// exits 0.
func TestBinaryServesProbesAndStopsOnSIGTERM(t *testing.T) {
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })
	applyOperatorAddons(t, "addon-operators", false)

	probe := freeAddress(t)
	cmd, stderr, exited := startBinary(t, kopsenv.Build(t, "./cmd/coredns-operator"), "--health-probe-bind-address="+probe, "--leader-election-identity=binary", "-v=6")

	get := func(path string) string {
		resp, err := http.Get("http://" + probe + path)
		if err != nil {
			return err.Error()
		}
		defer func() { _ = resp.Body.Close() }()
		if resp.StatusCode != http.StatusOK {
			return fmt.Sprintf("%s: %s", path, resp.Status)
		}
		return ""
	}
	eventually(t, "/healthz", func() string { return get("/healthz") })
	eventually(t, "/readyz", func() string { return get("/readyz") })
	eventually(t, "status", statusIs(t, manager.PhaseProgressing, false))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status after SIGTERM; stderr:\n%s", stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatalf("still running 15s after SIGTERM; stderr:\n%s", stderr.String())
	}
	lease, err := env.Clientset.CoordinationV1().Leases(coredns.Names().Namespace).Get(context.Background(), coredns.Names().LeaseName, metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "", "the lease is released on SIGTERM, held by %v", lease.Spec.HolderIdentity)

	logs := stderr.String()
	// The operator's logger is named, so its lines read `"Response" logger="coredns-operator" verb=`.
	responses := strings.Count(logs, `"Response" `)
	assert.NotZero(t, responses, "client-go logs its responses at -v=6")
	assert.Zero(t, strings.Count(logs, `status="403`), "403 responses in the operator's log:\n%s", logs)
	t.Logf("the binary logged %d responses, none 403", responses)
}

// startBinary starts the coredns-operator binary with a kubeconfig holding only a token of its
// ServiceAccount, and args. It returns the process, its stderr and what Wait returns.
func startBinary(t testing.TB, binary string, args ...string) (*exec.Cmd, *syncBuffer, chan error) {
	return startOperatorBinary(t, coredns.Descriptor(), binary, append([]string{"--leader-election-namespace=" + coredns.Names().Namespace}, args...)...)
}

// startOperatorBinary starts the binary of the operator d describes with a kubeconfig holding only
// a token of its ServiceAccount, and args.
func startOperatorBinary(t testing.TB, d *operator.Descriptor, binary string, args ...string) (*exec.Cmd, *syncBuffer, chan error) {
	token := tokenConfig(t, d, &statusCounter{}).BearerToken
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"e2e": {Server: env.Config.Host, CertificateAuthorityData: env.Config.CAData}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"operator": {Token: token}},
		Contexts:       map[string]*clientcmdapi.Context{"e2e": {Cluster: "e2e", AuthInfo: "operator"}},
		CurrentContext: "e2e",
	}, kubeconfig))

	cmd := exec.Command(binary, append([]string{"--kubeconfig=" + kubeconfig}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, stderr, exited
}
