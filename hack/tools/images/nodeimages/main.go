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
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

const nonRootUser = "65532:65532"

var epoch = time.Unix(0, 0).UTC()

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "nodeimages:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("nodeimages", flag.ContinueOnError)
	e2eDir := fs.String("e2e-dir", "", "the tests/e2e module, where the pause and test client programs are (required)")
	corednsBinary := fs.String("coredns-binary", "", "the CoreDNS binary to put in its image (required)")
	metricsServerBinary := fs.String("metrics-server-binary", "", "the metrics-server binary to put in its image (required)")
	outDir := fs.String("out", "", "directory for the tarballs (required)")
	pause := fs.String("pause", "", "name:tag of the sandbox image (required)")
	testclient := fs.String("testclient", "", "name:tag of the test client image (required)")
	coredns := fs.String("coredns", "", "name:tag of the CoreDNS image (required)")
	metricsServer := fs.String("metrics-server", "", "name:tag of the metrics-server image (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for flagName, v := range map[string]string{"e2e-dir": *e2eDir, "coredns-binary": *corednsBinary, "out": *outDir,
		"pause": *pause, "testclient": *testclient, "coredns": *coredns,
		"metrics-server-binary": *metricsServerBinary, "metrics-server": *metricsServer} {
		if v == "" {
			return fmt.Errorf("--%s is required", flagName)
		}
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "nodeimages-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // best effort: a leftover is only a temp folder

	images := []struct {
		ref, binary, file string
		capNetBind        bool
	}{
		{ref: *pause, binary: filepath.Join(tmp, "pause"), file: "pause.tar"},
		{ref: *testclient, binary: filepath.Join(tmp, "testclient"), file: "testclient.tar"},
		{ref: *coredns, binary: *corednsBinary, file: "coredns.tar", capNetBind: true},
		{ref: *metricsServer, binary: *metricsServerBinary, file: "metrics-server.tar"},
	}
	if err := goBuild(*e2eDir, tmp, "./nodecluster/images/pause", "./nodecluster/images/testclient"); err != nil {
		return err
	}
	for _, im := range images {
		digest, path, err := write(im.ref, im.binary, im.capNetBind, filepath.Join(*outDir, im.file))
		if err != nil {
			return fmt.Errorf("image %s: %w", im.ref, err)
		}
		fmt.Printf("%s %s %s\n", im.ref, digest, path)
	}
	return nil
}

// goBuild compiles static linux binaries of the packages into dir.
func goBuild(moduleDir, dir string, pkgs ...string) error {
	args := append([]string{"build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", dir + string(filepath.Separator)}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s in %s: %w\n%s", strings.Join(pkgs, " "), moduleDir, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// netBindCapability is the security.capability extended attribute granting CAP_NET_BIND_SERVICE
// in the permitted and effective sets (struct vfs_cap_data, revision 2, little-endian): what
// `setcap cap_net_bind_service=+ep` writes.
func netBindCapability() string {
	const (
		vfsCapRevision2     = 0x02000000
		vfsCapFlagEffective = 0x000001
		capNetBindService   = 10
	)
	b := make([]byte, 20)
	binary.LittleEndian.PutUint32(b[0:], vfsCapRevision2|vfsCapFlagEffective)
	binary.LittleEndian.PutUint32(b[4:], 1<<capNetBindService) // permitted, low 32 capabilities
	return string(b)                                           // inheritable and the high words stay 0
}

// layer is a one-file layer: the binary at /<base name>, owned by root, mode 0555, fixed times,
// with the file capability when capNetBind.
func layer(binPath string, capNetBind bool) (v1.Layer, string, error) {
	data, err := os.ReadFile(binPath)
	if err != nil {
		return nil, "", err
	}
	base := filepath.Base(binPath)
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: base, Mode: 0o555, Size: int64(len(data)), ModTime: epoch, Format: tar.FormatPAX}
	if capNetBind {
		hdr.PAXRecords = map[string]string{"SCHILY.xattr.security.capability": netBindCapability()}
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
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
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerBytes)), nil })
	return l, "/" + base, err
}

// write assembles the image and writes it to dest atomically, returning its digest.
func write(ref, binPath string, capNetBind bool, dest string) (v1.Hash, string, error) {
	tag, err := name.NewTag(ref, name.WeakValidation)
	if err != nil {
		return v1.Hash{}, "", err
	}
	l, entry, err := layer(binPath, capNetBind)
	if err != nil {
		return v1.Hash{}, "", err
	}
	img, err := mutate.AppendLayers(empty.Image, l)
	if err != nil {
		return v1.Hash{}, "", err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return v1.Hash{}, "", err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", runtime.GOARCH
	cfg.Created = v1.Time{Time: epoch}
	cfg.Config.User = nonRootUser
	cfg.Config.Entrypoint = []string{entry}
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		return v1.Hash{}, "", err
	}
	digest, err := img.Digest()
	if err != nil {
		return v1.Hash{}, "", err
	}
	partial, err := os.CreateTemp(filepath.Dir(dest), ".partial-*.tar")
	if err != nil {
		return v1.Hash{}, "", err
	}
	defer func() { _ = os.Remove(partial.Name()) }() // after the rename there is nothing left to remove
	if err := tarball.Write(tag, img, partial); err != nil {
		_ = partial.Close() // the write's error is the one to report
		return v1.Hash{}, "", err
	}
	if err := partial.Close(); err != nil {
		return v1.Hash{}, "", err
	}
	if err := os.Chmod(partial.Name(), 0o644); err != nil {
		return v1.Hash{}, "", err
	}
	return digest, dest, os.Rename(partial.Name(), dest)
}
