// Package channels holds kops's package channels, stable and alpha, with the package manifests
// they point to (packages/<name>/<version>/manifest.yaml). The files live here, where kops keeps
// them, so that `--channel file://channels/stable` run from the repository root reads the very
// files the binary embeds: there is one copy.
package channels

import (
	"embed"
	"io/fs"
)

//go:embed stable alpha packages
var content embed.FS

// FS returns the channel files, rooted at this directory: "stable", "alpha",
// "packages/<name>/<version>/manifest.yaml".
func FS() fs.FS {
	return content
}
