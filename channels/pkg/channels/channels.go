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

package channels

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	builtin "k8s.io/kops/channels"
	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

// Built-in channels, the values of spec.channel that need no file.
const (
	Stable = "stable"
	Alpha  = "alpha"
	// None is the stable channel's content under the name "none".
	None = "none"
)

// Loaded is a parsed channel and where its package manifests live; safe for concurrent use.
type Loaded struct {
	name    string
	channel *api.Channel
	// readPackageFile reads a path relative to the channel file; a missing file is fs.ErrNotExist.
	readPackageFile func(rel string) ([]byte, error)
}

// Name identifies the channel in messages.
func (l *Loaded) Name() string { return l.name }

// Channel returns the parsed channel; callers must not modify it.
func (l *Loaded) Channel() *api.Channel { return l.channel }

// Load reads the channel a cluster's spec.channel names: a built-in name, a file:// URL (relative
// to the working directory, as in kops) or memfs://. Other locations are refused rather than
// fetched: what a cluster gets must not depend on the network.
func Load(location string, paths *vfs.Context) (*Loaded, error) {
	switch location {
	case Stable, Alpha:
		return loadEmbedded(location, location)
	case None:
		return loadEmbedded(None, Stable)
	}
	p, err := channelPath(location, "", paths)
	if err != nil {
		return nil, err
	}
	return loadPath(p)
}

// channelPath resolves a relative file:// path against workDir, the working directory when empty.
func channelPath(location, workDir string, paths *vfs.Context) (vfs.Path, error) {
	scheme, rest, ok := strings.Cut(location, "://")
	switch {
	case location == "":
		return nil, errors.New("no channel given: use stable, alpha, none or file:///path/to/channel")
	case !ok:
		return nil, fmt.Errorf("channel %q is not a known channel: use stable, alpha, none or file:///path/to/channel", location)
	case strings.EqualFold(scheme, "file"):
		abs, err := absoluteFile(location, rest, workDir)
		if err != nil {
			return nil, err
		}
		return vfs.NewContext(nil).ParsePath("file://" + filepath.ToSlash(abs))
	case strings.EqualFold(scheme, "memfs"):
		if name, _, _ := strings.Cut(rest, "/"); name == "" {
			return nil, fmt.Errorf("channel %q: memfs URLs need a store name, e.g. memfs://test/channel", location)
		}
		if !paths.HasMemFS() {
			return nil, fmt.Errorf("channel %q: memfs:// is only available to tests that supply an in-memory store", location)
		}
		return paths.ParsePath(location)
	default:
		return nil, fmt.Errorf("channel %q: scheme %q is not supported (channels are never fetched over the network); "+
			"use stable, alpha, none or a local file:// URL", location, scheme)
	}
}

func absoluteFile(location, rest, workDir string) (string, error) {
	if rest == "" {
		return "", fmt.Errorf("channel %q: the file:// URL names no file", location)
	}
	p := filepath.FromSlash(rest)
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if workDir == "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("channel %q: resolving %s against the working directory: %w", location, rest, err)
		}
		return abs, nil
	}
	return filepath.Join(workDir, p), nil
}

func loadEmbedded(name, file string) (*Loaded, error) {
	root := builtin.FS()
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

func manifestPath(name, version string) string {
	return path.Join("packages", name, version, "manifest.yaml")
}
