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

package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func TestChannelImage(t *testing.T) {
	tests := []struct {
		pkg         string
		wantImage   string
		wantVersion string
		wantErr     string
	}{
		{pkg: "demo", wantImage: "example-project/demo:v1.1.0", wantVersion: "1.1.0"},
		{pkg: "twoimages", wantErr: "name 2 images"},
		{pkg: "noimage", wantErr: "no Deployment names an image"},
		{pkg: "badversion", wantErr: `spec.packages[4].version "one"`},
		{pkg: "missing", wantErr: `no package "missing"`},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			image, version, err := channelImage("testdata/channel/stable", tt.pkg)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantImage, image)
			assert.Equal(t, tt.wantVersion, version)
		})
	}
}

// The channels of this repository name each operator's image under the documented repository,
// named after its binary, with the package version as tag; `make images` builds that very name
// from the same files, for every operator hack/operators lists (the registry of the main module).
func TestRepositoryChannelsNameTheBuiltImage(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	list := exec.Command("go", "run", "./hack/operators")
	list.Dir = root
	out, err := list.Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		fields := strings.Fields(line)
		require.Len(t, fields, 2, line)
		for _, channel := range []string{"stable", "alpha"} {
			image, version, err := channelImage(filepath.Join(root, "channels", channel), fields[0])
			require.NoError(t, err, channel)
			assert.Equal(t, "kops-addons/"+filepath.Base(fields[1])+":v"+version, image, channel)
		}
	}

	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	target := regexp.MustCompile(`(?m)^images:.*\n((?:\t.*\n)+)`).FindSubmatch(makefile)
	require.NotNil(t, target, "the Makefile has an images target")
	recipe := string(target[1])
	for _, want := range []string{"run ./hack/operators", "hack/tools/images", "--channel channels/stable", `--package "$$package"`, `"$$binary"`} {
		assert.Contains(t, recipe, want)
	}
}

func TestBuildImage(t *testing.T) {
	opts := func(out string) buildOptions {
		return buildOptions{
			sourceDir: ".",
			goPackage: "./testdata/hello",
			image:     "example-project/hello:v1.2.3",
			version:   "1.2.3",
			revision:  sourceRevision("."),
			goArch:    "amd64",
			outDir:    out,
		}
	}
	first, err := build(opts(t.TempDir()))
	require.NoError(t, err)
	second, err := build(opts(t.TempDir()))
	require.NoError(t, err)
	assert.Equal(t, first.digest, second.digest, "the same source builds the same image")
	assert.Equal(t, "hello-v1.2.3.tar", filepath.Base(first.path))
	info, err := os.Stat(first.path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())

	tag, err := name.NewTag("example-project/hello:v1.2.3")
	require.NoError(t, err)
	img, err := tarball.ImageFromPath(first.path, &tag)
	require.NoError(t, err, "the tarball holds the image under the channel's name:tag")
	digest, err := img.Digest()
	require.NoError(t, err)
	assert.Equal(t, first.digest, digest, "the printed digest is the tarball's")

	cfg, err := img.ConfigFile()
	require.NoError(t, err)
	assert.Equal(t, "65532:65532", cfg.Config.User)
	assert.Equal(t, []string{"/hello"}, cfg.Config.Entrypoint)
	assert.Empty(t, cfg.Config.Cmd)
	assert.Equal(t, "linux", cfg.OS)
	assert.Equal(t, "amd64", cfg.Architecture)
	assert.Equal(t, map[string]string{
		"org.opencontainers.image.revision": sourceRevision("."),
		"org.opencontainers.image.version":  "1.2.3",
		"org.opencontainers.image.title":    "hello",
	}, cfg.Config.Labels)
	if err := exec.Command("git", "-C", ".", "rev-parse", "HEAD").Run(); err == nil {
		assert.Regexp(t, `^[0-9a-f]{40}(-dirty)?$`, sourceRevision("."), "in a git checkout, the commit")
	}
	assert.Equal(t, "unknown", sourceRevision(t.TempDir()))

	layers, err := img.Layers()
	require.NoError(t, err)
	require.Len(t, layers, 1, "one layer: the binary, on no base")
	rc, err := layers[0].Uncompressed()
	require.NoError(t, err)
	defer func() { _ = rc.Close() }()
	var files []string
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		files = append(files, hdr.Name)
		assert.EqualValues(t, 0o555, hdr.Mode)
		assert.Zero(t, hdr.ModTime.Unix(), "fixed file times")
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(body), "\x7fELF"), "a linux binary")
	}
	assert.Equal(t, []string{"hello"}, files, "nothing but the binary: no shell, no libraries")
}

func TestBuildBinaryIsStatic(t *testing.T) {
	if _, err := exec.LookPath("file"); err != nil {
		t.Skip("file(1) not installed")
	}
	bin, err := buildBinary(buildOptions{sourceDir: ".", goPackage: "./testdata/hello", goArch: "amd64"}, t.TempDir())
	require.NoError(t, err)
	out, err := exec.Command("file", bin).Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "statically linked")
}

func TestBuildErrors(t *testing.T) {
	_, err := build(buildOptions{sourceDir: ".", goPackage: "./testdata/hello", image: "Not A Name", goArch: "amd64", outDir: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "must be name:tag")

	out := t.TempDir()
	_, err = build(buildOptions{sourceDir: ".", goPackage: "./testdata/missing", image: "example-project/x:v1", goArch: "amd64", outDir: out})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "go build ./testdata/missing")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "a failed build leaves no tarball")
}

// TestBuildReportsProgress: every step says so, and a compile longer than the heartbeat says it
// is still running, so that a build on a loaded machine is never silent.
func TestBuildReportsProgress(t *testing.T) {
	var progress strings.Builder
	out := t.TempDir()
	_, err := build(buildOptions{sourceDir: ".", goPackage: "./testdata/hello", image: "example-project/hello:v1.2.3",
		goArch: "amd64", outDir: out, progress: &progress, heartbeat: time.Millisecond})
	require.NoError(t, err)
	lines := progress.String()
	for _, want := range []string{
		"images: compiling ./testdata/hello for linux/amd64",
		"images: still compiling ./testdata/hello (",
		"images: compiling ./testdata/hello took ",
		"images: assembling example-project/hello:v1.2.3",
		"images: writing " + filepath.Join(out, "hello-v1.2.3.tar"),
	} {
		assert.Contains(t, lines, want)
	}
}
