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
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

// Build compiles one command of the repository (./cmd/kops, ./cmd/channels) as BuildCommands does
// and returns the binary's path.
func Build(t testing.TB, pkg string) string {
	name := filepath.Base(pkg)
	return filepath.Join(BuildCommands(t, name), name)
}

// Kubeconfig writes a kubeconfig file for the test server's admin in a folder of t's and returns
// its path.
func Kubeconfig(t testing.TB, env *framework.Env) string {
	p := filepath.Join(t.TempDir(), "kubeconfig")
	WriteKubeconfig(t, env, p)
	return p
}

// Exec executes a binary with args and the given extra environment (KUBECONFIG and
// KOPS_FEATURE_FLAGS are cleared unless given), returning stdout and stderr; unlike Command it
// needs no test, so benchmarks loop over it.
func Exec(binary string, env []string, args ...string) (stdout, stderr string, err error) {
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
