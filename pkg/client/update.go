package client

import (
	"errors"
	"fmt"
	"io/fs"

	"k8s.io/kops/util/pkg/vfs"
)

// LockForUpdate holds the store lock for a command that writes a cluster's generated files itself
// (`kops update cluster --yes` writes <cluster>/addons/), so that a delete, an edit or another
// update of the store cannot interleave with it. It refuses a cluster that is not stored, and one
// whose folders that update writes in are symlinks: a write must not land outside the store.
// The caller runs the returned unlock when its writes are done.
func (c *Clientset) LockForUpdate(name string) (func(), error) {
	if err := ValidateClusterName(name); err != nil {
		return nil, err
	}
	unlock, err := c.lock()
	if err != nil {
		return nil, err
	}
	if err := c.checkUpdatable(name); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

func (c *Clientset) checkUpdatable(name string) error {
	exists, err := c.configPath(name).Exists()
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	if err := c.checkRealFolders(name); err != nil {
		return err
	}
	addons := c.clusterDir(name).Join("addons")
	folders := []vfs.Path{addons}
	children, err := addons.ReadDir()
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotFolder(addons) {
		return err
	}
	for _, child := range children {
		if child.Base() != "bootstrap-channel.yaml" { // every other entry is an addon's folder
			folders = append(folders, child)
		}
	}
	for _, p := range folders {
		if isNotFolder(p) {
			return fmt.Errorf("%s is not a folder (a symlink is not written through); fix the state store by hand", p)
		}
	}
	return nil
}

// isNotFolder says whether something other than a folder (a file, a symlink) is at p.
func isNotFolder(p vfs.Path) bool {
	isDir, err := p.IsDir()
	return err == nil && !isDir
}
