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
	addons := c.clusterDir(name).Join("addons")
	if err := c.checkRealFolders(name, addons); err != nil {
		return err
	}
	// Every entry of addons/ but the channel is an addon's folder, which update writes in too.
	children, err := addons.ReadDir()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var folders []vfs.Path
	for _, child := range children {
		if child.Base() != "bootstrap-channel.yaml" {
			folders = append(folders, child)
		}
	}
	return c.checkRealFolders(name, folders...)
}
