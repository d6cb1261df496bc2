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

package client

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"k8s.io/kops/util/pkg/vfs"
)

// ClusterFiles sorts a cluster's folder into files kops writes and the rest; leftover temp files of
// killed writes are neither and go with their folder.
type ClusterFiles struct {
	// Known are in the order DeleteCluster removes them, config last.
	Known   []vfs.Path
	Unknown []vfs.Path
	// dirs are the known folders below the cluster's, deepest first.
	dirs []vfs.Path
}

// known lists what kops writes in a cluster's folder, including `kops update cluster --yes`'s addons/
// and igconfig/.
var known = map[string]func(c *Clientset, p vfs.Path, files *ClusterFiles) error{
	"instancegroup": func(c *Clientset, p vfs.Path, files *ClusterFiles) error {
		return files.walk(p, func(name string, isDir bool) bool { return !isDir && ValidateInstanceGroupName(name) == nil }, nil)
	},
	"clusteraddons": func(c *Clientset, p vfs.Path, files *ClusterFiles) error {
		return files.walk(p, func(name string, isDir bool) bool { return !isDir && name == "default" }, nil)
	},
	"pki": func(c *Clientset, p vfs.Path, files *ClusterFiles) error {
		return files.walkPath(p, []string{"ssh", "public", "admin"}, isSSHKeyID)
	},
	"igconfig": func(c *Clientset, p vfs.Path, files *ClusterFiles) error {
		return files.walk(p, func(name string, isDir bool) bool { return !isDir && name == nodeFilesLedger }, func(role vfs.Path) error {
			if !igConfigRoles[role.Base()] {
				files.Unknown = append(files.Unknown, role)
				return nil
			}
			return files.walk(role, func(string, bool) bool { return false }, func(group vfs.Path) error {
				if ValidateInstanceGroupName(group.Base()) != nil {
					files.Unknown = append(files.Unknown, group)
					return nil
				}
				return files.walk(group, func(_ string, isDir bool) bool { return !isDir }, nil)
			})
		})
	},
	"addons": func(c *Clientset, p vfs.Path, files *ClusterFiles) error {
		return files.walk(p, func(name string, isDir bool) bool { return !isDir && name == "bootstrap-channel.yaml" },
			func(sub vfs.Path) error {
				return files.walk(sub, func(_ string, isDir bool) bool { return !isDir }, nil)
			})
	},
}

// createdFolders are the folders CreateCluster writes besides the config.
var createdFolders = map[string]bool{"instancegroup": true, "clusteraddons": true, "pki": true}

// nodeFilesLedger is nodesetup.LedgerLocation's file; the store does not import the model.
const nodeFilesLedger = ".kops-ledger.sha256"

var igConfigRoles = map[string]bool{"controlplane": true, "node": true, "apiserver": true, "bastion": true}

func (f *ClusterFiles) walk(dir vfs.Path, isKnown func(name string, isDir bool) bool, descend func(vfs.Path) error) error {
	entries, err := dir.ReadDir()
	if err != nil {
		return err
	}
	for _, e := range entries {
		isDir, err := e.IsDir()
		if err != nil {
			return err
		}
		switch {
		case isKnown(e.Base(), isDir):
			f.Known = append(f.Known, e)
		case isDir && descend != nil:
			if err := descend(e); err != nil {
				return err
			}
		default:
			f.Unknown = append(f.Unknown, e)
		}
	}
	f.dirs = append(f.dirs, dir)
	return nil
}

func (f *ClusterFiles) walkPath(dir vfs.Path, path []string, isKnown func(string) bool) error {
	if len(path) == 0 {
		return f.walk(dir, func(name string, isDir bool) bool { return !isDir && isKnown(name) }, nil)
	}
	return f.walk(dir, func(string, bool) bool { return false }, func(sub vfs.Path) error {
		if sub.Base() != path[0] {
			f.Unknown = append(f.Unknown, sub)
			return nil
		}
		return f.walkPath(sub, path[1:], isKnown)
	})
}

func isSSHKeyID(name string) bool {
	if len(name) != 32 {
		return false
	}
	for _, r := range name {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

func (c *Clientset) ListClusterFiles(name string) (*ClusterFiles, error) {
	files, err := c.listClusterFiles(name)
	if err == nil && !files.hasConfig() {
		return nil, fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	return files, err
}

// hasConfig: without a config the files are what a create that did not finish left.
func (f *ClusterFiles) hasConfig() bool {
	return len(f.Known) > 0 && f.Known[len(f.Known)-1].Base() == "config"
}

// listClusterFiles is ListClusterFiles that also lists a folder without a config.
func (c *Clientset) listClusterFiles(name string) (*ClusterFiles, error) {
	if err := ValidateClusterName(name); err != nil {
		return nil, err
	}
	dir := c.clusterDir(name)
	isDir, err := dir.IsDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	if err != nil {
		return nil, err
	}
	if !isDir {
		return nil, fmt.Errorf("%s is not a folder of the store (a file or a link); remove it by hand", dir)
	}
	entries, err := dir.ReadDir()
	if err != nil {
		return nil, err
	}
	files := &ClusterFiles{}
	var config vfs.Path
	for _, e := range entries {
		isDir, err := e.IsDir()
		if err != nil {
			return nil, err
		}
		walk, isKnownDir := known[e.Base()]
		switch {
		case e.Base() == "config" && !isDir:
			config = e
		case isKnownDir && isDir:
			if err := walk(c, e, files); err != nil {
				return nil, err
			}
		default:
			files.Unknown = append(files.Unknown, e)
		}
	}
	if config != nil {
		files.Known = append(files.Known, config)
	}
	return files, nil
}

type DeleteOptions struct {
	// Unknown also deletes files kops does not write; without it they make DeleteCluster refuse.
	Unknown bool
}

var ErrUnknownFiles = errors.New("unknown file found")

// DeleteCluster removes what kops writes for a cluster under the store lock, config last, so a failure
// midway leaves a cluster that can be deleted again. Unknown files make it refuse unless opts.Unknown.
func (c *Clientset) DeleteCluster(name string, opts DeleteOptions) error {
	if err := ValidateClusterName(name); err != nil {
		return err
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	files, err := c.listClusterFiles(name)
	if err != nil {
		return err
	}
	if !files.hasConfig() {
		return c.removeLeftovers(name, files)
	}
	if len(files.Unknown) > 0 && !opts.Unknown {
		return fmt.Errorf("%w in cluster %q: %s; nothing was deleted",
			ErrUnknownFiles, name, joinPaths(files.Unknown))
	}
	failed := func(err error) error {
		return fmt.Errorf("deleting cluster %q: %w; the cluster is still in the store, run the delete again", name, err)
	}
	if opts.Unknown {
		for _, p := range files.Unknown {
			if err := p.RemoveAll(); err != nil {
				return failed(err)
			}
		}
	}
	config := files.Known[len(files.Known)-1]
	for _, p := range files.Known[:len(files.Known)-1] {
		if err := p.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return failed(err)
		}
	}
	for _, d := range files.dirs {
		if err := d.RemoveDir(); err != nil {
			return failed(err)
		}
	}
	if err := config.Remove(); err != nil {
		return failed(err)
	}
	if err := c.clusterDir(name).RemoveDir(); err != nil {
		return fmt.Errorf("cluster %q is deleted, but its folder could not be removed: %w", name, err)
	}
	return nil
}

// removeLeftovers deletes what a create that did not finish left in a cluster's folder (it has no
// config): only files a create writes, so anything else keeps the folder, and the cluster is
// reported not found either way.
func (c *Clientset) removeLeftovers(name string, files *ClusterFiles) error {
	notFound := fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	if len(files.Known) == 0 || len(files.Unknown) > 0 {
		return notFound
	}
	dir := c.clusterDir(name).String() + "/"
	for _, p := range files.Known {
		top, _, _ := strings.Cut(strings.TrimPrefix(p.String(), dir), "/")
		if !createdFolders[top] {
			return notFound // written by an update: not a create's leftover, so not ours to judge
		}
	}
	for _, p := range files.Known {
		if err := p.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s, left by a create of cluster %q that did not finish: %w", p, name, err)
		}
	}
	for _, d := range append(files.dirs, c.clusterDir(name)) {
		if err := d.RemoveDir(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s, left by a create of cluster %q that did not finish: %w", d, name, err)
		}
	}
	return fmt.Errorf("%w (removed the files a create of it that did not finish had left: %s)", notFound, joinPaths(files.Known))
}

func joinPaths(paths []vfs.Path) string {
	s := make([]string, len(paths))
	for i, p := range paths {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}
