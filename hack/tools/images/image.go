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
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Image facts that the tests check.
const (
	// nonRootUser is the numeric user and group the image runs as (distroless's "nonroot"); numeric,
	// since the image has no /etc/passwd to resolve a name and kubelet's runAsNonRoot check needs a number.
	nonRootUser   = "65532:65532"
	labelRevision = "org.opencontainers.image.revision"
	labelVersion  = "org.opencontainers.image.version"
	labelTitle    = "org.opencontainers.image.title"
)

// epoch is every timestamp in the image (file times, config created): the digest then depends on
// the source alone, not on when it was built.
var epoch = time.Unix(0, 0).UTC()

type buildOptions struct {
	sourceDir string // module root the Go package is built in
	goPackage string // e.g. ./cmd/coredns-operator
	image     string // name:tag, from the channel
	version   string // package version, for the label
	revision  string // source revision, for the label
	goArch    string
	outDir    string
	// progress receives a line per step and, during the compile, one every heartbeat, so that a
	// long build on a loaded machine is never silent; nil for none.
	progress  io.Writer
	heartbeat time.Duration
}

func (o buildOptions) say(format string, args ...any) {
	if o.progress != nil {
		_, _ = fmt.Fprintf(o.progress, "images: "+format+"\n", args...) // only a progress note
	}
}

// whileRunning reports every heartbeat how long fn has run, until it returns.
func (o buildOptions) whileRunning(what string, fn func() error) error {
	if o.progress == nil || o.heartbeat <= 0 {
		return fn()
	}
	start := time.Now()
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(o.heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				o.say("still %s (%s)", what, time.Since(start).Round(time.Second))
			}
		}
	}()
	err := fn()
	close(done)
	<-stopped
	if err == nil {
		o.say("%s took %s", what, time.Since(start).Round(100*time.Millisecond))
	}
	return err
}

type built struct {
	path   string
	digest v1.Hash
}

// buildBinary compiles a static, reproducible linux binary of the package into dir.
func buildBinary(o buildOptions, dir string) (string, error) {
	out := filepath.Join(dir, path.Base(o.goPackage))
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", out, o.goPackage)
	cmd.Dir = o.sourceDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+o.goArch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build %s in %s: %w\n%s", o.goPackage, o.sourceDir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// binaryLayer is a one-file layer: the binary at /<name>, owned by root, readable and executable
// by everyone, with fixed times.
func binaryLayer(binPath string) (v1.Layer, string, error) {
	data, err := os.ReadFile(binPath)
	if err != nil {
		return nil, "", err
	}
	inImage := "/" + filepath.Base(binPath)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	hdr := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     strings.TrimPrefix(inImage, "/"),
		Mode:     0o555,
		Size:     int64(len(data)),
		ModTime:  epoch,
		Format:   tar.FormatPAX,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, "", err
	}
	if _, err := tw.Write(data); err != nil {
		return nil, "", err
	}
	if err := tw.Close(); err != nil {
		return nil, "", err
	}
	layerBytes := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerBytes)), nil
	})
	return layer, inImage, err
}

// assemble makes the image: no base (nothing but the binary, so no shell), a non-root user, the
// binary as entrypoint, OCI labels.
func assemble(o buildOptions, binPath string) (v1.Image, error) {
	layer, entry, err := binaryLayer(binPath)
	if err != nil {
		return nil, fmt.Errorf("making the layer: %w", err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS = "linux"
	cfg.Architecture = o.goArch
	cfg.Created = v1.Time{Time: epoch}
	cfg.Config.User = nonRootUser
	cfg.Config.Entrypoint = []string{entry}
	cfg.Config.Labels = map[string]string{
		labelRevision: o.revision,
		labelVersion:  o.version,
		labelTitle:    path.Base(o.goPackage),
	}
	return mutate.ConfigFile(img, cfg)
}

// tarballName is <repository's last component>-<tag>.tar, e.g. coredns-operator-v0.2.0.tar.
func tarballName(ref name.Tag) string {
	return path.Base(ref.RepositoryStr()) + "-" + ref.TagStr() + ".tar"
}

// build compiles the package and writes the image tarball (docker-archive format: `docker load`,
// `crane push` and `skopeo copy docker-archive:` read it), written atomically.
func build(o buildOptions) (built, error) {
	// Weak validation: the channel's names carry no registry (users choose it with
	// spec.assets.containerRegistry), but the tag must be written, never defaulted to latest.
	ref, err := name.NewTag(o.image, name.WeakValidation)
	if err == nil && !strings.HasSuffix(o.image, ":"+ref.TagStr()) {
		err = fmt.Errorf("no tag")
	}
	if err != nil {
		return built{}, fmt.Errorf("image %q named by the channel must be name:tag: %w", o.image, err)
	}
	tmp, err := os.MkdirTemp("", "images-")
	if err != nil {
		return built{}, err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // best effort: a leftover is only a temp folder
	o.say("compiling %s for linux/%s (a minute or two on 2 cores with a cold build cache)", o.goPackage, o.goArch)
	var bin string
	err = o.whileRunning("compiling "+o.goPackage, func() error {
		var err error
		bin, err = buildBinary(o, tmp)
		return err
	})
	if err != nil {
		return built{}, err
	}
	o.say("assembling %s", o.image)
	img, err := assemble(o, bin)
	if err != nil {
		return built{}, err
	}
	digest, err := img.Digest()
	if err != nil {
		return built{}, err
	}
	if err := os.MkdirAll(o.outDir, 0o755); err != nil {
		return built{}, err
	}
	dest := filepath.Join(o.outDir, tarballName(ref))
	o.say("writing %s", dest)
	partial, err := os.CreateTemp(o.outDir, ".partial-*.tar")
	if err != nil {
		return built{}, err
	}
	defer func() { _ = os.Remove(partial.Name()) }() // after the rename there is nothing left to remove
	if err := tarball.Write(ref, img, partial); err != nil {
		_ = partial.Close() // the write's error is the one to report
		return built{}, fmt.Errorf("writing %s: %w", dest, err)
	}
	if err := partial.Close(); err != nil {
		return built{}, err
	}
	// CreateTemp makes the file private; the tarball is for pushing, not a secret.
	if err := os.Chmod(partial.Name(), 0o644); err != nil {
		return built{}, err
	}
	if err := os.Rename(partial.Name(), dest); err != nil {
		return built{}, err
	}
	return built{path: dest, digest: digest}, nil
}
