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
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "images:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("images", flag.ContinueOnError)
	sourceDir := fs.String("source-dir", ".", "module root the Go package is built in")
	channel := fs.String("channel", "", "channel file whose package manifest names the image (required)")
	pkg := fs.String("package", "", "channel package the image is for (required)")
	outDir := fs.String("out", "_output/images", "directory for the tarball (relative to --source-dir)")
	goArch := fs.String("arch", runtime.GOARCH, "GOARCH of the binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *channel == "" || *pkg == "" || fs.NArg() != 1 {
		return fmt.Errorf("usage: images --channel FILE --package NAME [--source-dir DIR] [--out DIR] GO_MAIN_PACKAGE")
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(*sourceDir, p)
	}
	image, version, err := channelImage(abs(*channel), *pkg)
	if err != nil {
		return err
	}
	b, err := build(buildOptions{
		sourceDir: *sourceDir,
		goPackage: fs.Arg(0),
		image:     image,
		version:   version,
		revision:  sourceRevision(*sourceDir),
		goArch:    *goArch,
		outDir:    abs(*outDir),
		progress:  os.Stderr,
		heartbeat: 15 * time.Second,
	})
	if err != nil {
		return err
	}
	fmt.Printf("%s %s %s\n", image, b.digest, b.path)
	return nil
}

// sourceRevision is the commit the source is at, with "-dirty" when tracked files differ from it
// (the binary then holds changes the commit does not), or "unknown" outside a git checkout.
func sourceRevision(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil || len(strings.TrimSpace(string(status))) > 0 {
		rev += "-dirty"
	}
	return rev
}
