// Package channels loads the package channel a cluster's spec.channel names and resolves which
// version of a package (an addon operator, or the software an operator deploys) suits the
// cluster's Kubernetes version. It is the I/O edge for channel data: model builders receive the
// resolved Package, manifest bytes included, and never read files themselves.
package channels

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/upup/models"
	"k8s.io/kops/util/pkg/vfs"
)

// Names of the built-in channels, the values of spec.channel that need no file.
const (
	Stable = "stable"
	Alpha  = "alpha"
	// None selects the built-in defaults: the stable channel's content under the name "none".
	None = "none"
)

// Loaded is a parsed channel together with where its package manifests live. It is read-only
// after Load and safe for concurrent use.
type Loaded struct {
	name    string
	channel *api.Channel
	// readPackageFile reads a path relative to the channel file's directory and reports a
	// missing file with an error satisfying errors.Is(err, fs.ErrNotExist).
	readPackageFile func(rel string) ([]byte, error)
}

// Name identifies the channel in messages: stable, alpha, none, or the channel file's URL.
func (l *Loaded) Name() string { return l.name }

// Channel returns the parsed channel; callers must not modify it.
func (l *Loaded) Channel() *api.Channel { return l.channel }

// Load reads the channel named by location, a cluster's spec.channel value: stable, alpha or none
// (built in, see upup/models/channels), file:///abs/path/channel.yaml, or memfs://store/path
// when mem is given (tests). Other locations are rejected rather than fetched: what a cluster
// gets must not depend on the network.
func Load(location string, mem *vfs.MemFS) (*Loaded, error) {
	switch location {
	case Stable, Alpha:
		return loadEmbedded(location, location+".yaml")
	case None:
		return loadEmbedded(None, Stable+".yaml")
	}
	scheme, _, ok := strings.Cut(location, "://")
	switch {
	case location == "":
		return nil, errors.New("no channel given: use stable, alpha, none or file:///path/to/channel.yaml")
	case !ok:
		return nil, fmt.Errorf("channel %q is not a known channel: use stable, alpha, none or file:///path/to/channel.yaml", location)
	case strings.EqualFold(scheme, "file") || strings.EqualFold(scheme, "memfs"):
		p, err := vfs.ParsePath(location, mem)
		if err != nil {
			return nil, fmt.Errorf("channel %q: %w", location, err)
		}
		return loadPath(p)
	default:
		return nil, fmt.Errorf("channel %q: scheme %q is not supported (channels are never fetched over the network); "+
			"use stable, alpha, none or a local file:///path/to/channel.yaml", location, scheme)
	}
}

func loadEmbedded(name, file string) (*Loaded, error) {
	root, err := fs.Sub(models.ChannelsFS(), "channels")
	if err != nil {
		return nil, fmt.Errorf("opening built-in channels: %w", err)
	}
	data, err := fs.ReadFile(root, file)
	if err != nil {
		return nil, fmt.Errorf("reading built-in channel %q: %w", name, err)
	}
	return parse(name, data, func(rel string) ([]byte, error) { return fs.ReadFile(root, rel) })
}

func loadPath(p vfs.Path) (*Loaded, error) {
	data, err := p.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("reading channel %s: %w", p, err)
	}
	dir := p.Dir()
	return parse(p.String(), data, func(rel string) ([]byte, error) { return dir.Join(rel).ReadFile() })
}

func parse(name string, data []byte, read func(string) ([]byte, error)) (*Loaded, error) {
	c, err := api.ParseChannel(data)
	if err != nil {
		return nil, fmt.Errorf("channel %q: %w", name, err)
	}
	return &Loaded{name: name, channel: c, readPackageFile: read}, nil
}

// manifestPath is where a package version's manifest lies, relative to the channel file.
func manifestPath(name, version string) string {
	return path.Join("packages", name, version, "manifest.yaml")
}
