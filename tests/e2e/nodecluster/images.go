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

package nodecluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Images are the image tarballs BuildImages made.
type Images struct {
	// Operators are every operator's of the registry, as `make images` builds them (under
	// _output/images).
	Operators []string
	// Pause, TestClient, CoreDNS and MetricsServer are PauseImage's, TestClientImage's,
	// CoreDNSImage's and MetricsServerImage's.
	Pause, TestClient, CoreDNS, MetricsServer string
}

// All lists every tarball, for Options.Images.
func (i Images) All() []string {
	return append([]string{i.Pause, i.TestClient, i.CoreDNS, i.MetricsServer}, i.Operators...)
}

// BuildImages builds the node's images offline: the operator's with `make images` (the repository's
// own target, so the cluster runs exactly what a user pushes), the others with
// hack/tools/images/nodeimages into outDir, CoreDNS from the binary hack/build-test-node.sh built in
// nodeBinDir and metrics-server from the one it built in MetricsServerBinaryDirName. Each build is a few seconds when Go's build cache is warm.
func BuildImages(ctx context.Context, repoRoot, nodeBinDir, outDir string) (Images, error) {
	var im Images
	out, err := runIn(ctx, repoRoot, "make", "--no-print-directory", "images")
	if err != nil {
		return im, err
	}
	// make images prints "<name:tag> <digest> <file>", one line per operator.
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 && strings.HasSuffix(f[2], ".tar") {
			tarball := f[2]
			if !filepath.IsAbs(tarball) {
				tarball = filepath.Join(repoRoot, tarball)
			}
			im.Operators = append(im.Operators, tarball)
		}
	}
	if len(im.Operators) == 0 {
		return im, fmt.Errorf("make images printed no image tarball:\n%s", out)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return im, err
	}
	metricsServer := filepath.Join(repoRoot, "_output", "testbin", MetricsServerBinaryDirName, "metrics-server")
	if _, err := os.Stat(metricsServer); err != nil {
		return im, fmt.Errorf("metrics-server not found in %s: run hack/build-test-node.sh (make test-node)", filepath.Dir(metricsServer))
	}
	_, err = runIn(ctx, filepath.Join(repoRoot, "hack", "tools", "images"), "go", "run", "./nodeimages",
		"--e2e-dir", filepath.Join(repoRoot, "tests", "e2e"),
		"--coredns-binary", filepath.Join(nodeBinDir, "coredns"),
		"--metrics-server-binary", metricsServer,
		"--out", outDir,
		"--pause", PauseImage, "--testclient", TestClientImage, "--coredns", CoreDNSImage,
		"--metrics-server", MetricsServerImage)
	if err != nil {
		return im, err
	}
	im.Pause, im.TestClient, im.CoreDNS = filepath.Join(outDir, "pause.tar"), filepath.Join(outDir, "testclient.tar"), filepath.Join(outDir, "coredns.tar")
	im.MetricsServer = filepath.Join(outDir, "metrics-server.tar")
	return im, nil
}

func runIn(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s in %s: %w\n%s%s", name, strings.Join(args, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// BinDirs are the folders hack/build-test-node.sh and hack/build-test-apiserver.sh build into,
// under repoRoot.
func BinDirs(repoRoot string) (nodeBinDir, apiServerBinDir string) {
	testbin := filepath.Join(repoRoot, "_output", "testbin")
	return filepath.Join(testbin, NodeBinaryDirName), filepath.Join(testbin, APIServerBinaryDirName)
}

// RepoRoot walks up from dir to the repository's root (the folder holding hack/build-test-node.sh).
func RepoRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "hack", "build-test-node.sh")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no hack/build-test-node.sh in %s or any parent folder: run inside the kops repository", dir)
		}
	}
}
