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
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBinaryDirDefaultsToRepoOutput(t *testing.T) {
	t.Setenv(assetsEnv, "")
	dir, err := binaryDir()
	require.NoError(t, err)
	root, err := filepath.Abs("../../..")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "_output", "testbin", BinaryDirName), dir)
}

func TestBinaryDirHonoursKubebuilderAssets(t *testing.T) {
	t.Setenv(assetsEnv, "/somewhere/else")
	dir, err := binaryDir()
	require.NoError(t, err)
	assert.Equal(t, "/somewhere/else", dir)
}

func TestCheckBinariesNamesTheFixWhenMissing(t *testing.T) {
	dir := t.TempDir()
	writeExecutable(t, filepath.Join(dir, "etcd"))

	err := checkBinaries(dir)
	require.Error(t, err)
	assert.Equal(t, "test API server binaries not found in "+dir+": run hack/build-test-apiserver.sh (or make test, which builds them)", err.Error())

	writeExecutable(t, filepath.Join(dir, "kube-apiserver"))
	assert.NoError(t, checkBinaries(dir))
}

func TestCheckBinariesRejectsNonExecutable(t *testing.T) {
	dir := t.TempDir()
	writeExecutable(t, filepath.Join(dir, "etcd"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kube-apiserver"), nil, 0o644))
	assert.ErrorContains(t, checkBinaries(dir), "test API server binaries not found")
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
}
