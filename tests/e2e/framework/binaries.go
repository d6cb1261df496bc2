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

package framework

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Versions of the binaries the e2e tests run. They must match
// hack/build-test-apiserver.sh, which builds them into BinaryDirName.
const (
	KubernetesVersion = "v1.35.4"
	EtcdVersion       = "v3.6.5"
	BinaryDirName     = "k8s-1.35.4-etcd-3.6.5"
)

// assetsEnv names the directory holding kube-apiserver and etcd, when set; the
// convention of controller-runtime's envtest and kubebuilder projects.
const assetsEnv = "KUBEBUILDER_ASSETS"

// buildScript marks the repository root and builds the binaries.
const buildScript = "hack/build-test-apiserver.sh"

// binaryDir returns the directory holding kube-apiserver and etcd:
// $KUBEBUILDER_ASSETS, or _output/testbin/BinaryDirName under the repository
// root found above the working directory. It does not check the binaries.
func binaryDir() (string, error) {
	if dir := os.Getenv(assetsEnv); dir != "" {
		return dir, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "_output", "testbin", BinaryDirName), nil
}

// repoRoot walks up from the working directory (go test runs a test binary in
// its package's directory) to the directory that holds the build script.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the repository root: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, buildScript)); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no %s in %s or any parent directory: run the tests inside the kops repository or set %s to the directory holding kube-apiserver and etcd", buildScript, wd, assetsEnv)
		}
	}
}

// checkBinaries reports, in the one message people should see, that the
// binaries are missing from dir.
func checkBinaries(dir string) error {
	for _, name := range []string{"kube-apiserver", "etcd"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			continue
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checking test API server binaries in %s: %w", dir, err)
		}
		return fmt.Errorf("test API server binaries not found in %s: run %s (or make test, which builds them)", dir, buildScript)
	}
	return nil
}
