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

package kopsenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/tests/e2e/framework"
)

// BuildCommands builds the named commands of the repository (kops, channels) into a directory of
// t's and returns it, so that tests run the binaries as a user does.
func BuildCommands(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "./cmd/"+n)
	}
	build := exec.Command("go", args...)
	build.Dir = RepoRoot(t)
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building %v: %s", names, out)
	return dir
}

// WriteKubeconfig writes a kubeconfig file for the admin of env to path.
func WriteKubeconfig(t testing.TB, env *framework.Env, path string) {
	t.Helper()
	require.NoError(t, clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"e2e": {Server: env.Config.Host, CertificateAuthorityData: env.Config.CAData}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"admin": {ClientCertificateData: env.Config.CertData, ClientKeyData: env.Config.KeyData, Token: env.Config.BearerToken}},
		Contexts:       map[string]*clientcmdapi.Context{"e2e": {Cluster: "e2e", AuthInfo: "admin"}},
		CurrentContext: "e2e",
	}, path))
}

// Run is one finished command.
type Run struct {
	Code           int
	Stdout, Stderr string
}

// Command runs a binary with args in dir with exactly the environment env (plus PATH and HOME
// from the test's), and returns what it printed and its exit code.
func Command(t testing.TB, dir string, env []string, binary string, args ...string) Run {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return Run{Code: code, Stdout: out.String(), Stderr: errOut.String()}
}
