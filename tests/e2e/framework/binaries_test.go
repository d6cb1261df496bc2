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
