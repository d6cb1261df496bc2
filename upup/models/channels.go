package models

import (
	"embed"
	"io/fs"
)

// channelContent holds the package channels (stable.yaml, alpha.yaml) and the package manifests
// they point to, so that a cluster on a built-in channel never depends on the network.
//
//go:embed channels
var channelContent embed.FS

// ChannelsFS returns the embedded channels tree. Like FS, it is rooted at this directory, so
// paths start with "channels/" (channels/stable.yaml,
// channels/packages/<name>/<version>/manifest.yaml).
func ChannelsFS() fs.FS {
	return channelContent
}
