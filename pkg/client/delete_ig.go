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

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/util/pkg/vfs"
)

// InstanceGroupFiles are what `kops delete ig` removes: the group's node files, then the group last,
// so a delete cut short can be rerun.
func (c *Clientset) InstanceGroupFiles(cluster string, g *kops.InstanceGroup) ([]vfs.Path, error) {
	if err := ValidateClusterName(cluster); err != nil {
		return nil, err
	}
	if err := ValidateInstanceGroupName(g.Name); err != nil {
		return nil, err
	}
	dir := c.nodeFilesDir(cluster, g)
	entries, err := dir.ReadDir()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var files, unknown []vfs.Path
	for _, e := range entries {
		isDir, err := e.IsDir()
		if err != nil {
			return nil, err
		}
		if isDir {
			unknown = append(unknown, e)
			continue
		}
		files = append(files, e)
	}
	if len(unknown) > 0 {
		// kops writes only files there: a folder is someone else's.
		return nil, fmt.Errorf("%w in the node files of instance group %q: %s; nothing was deleted", ErrUnknownFiles, g.Name, joinPaths(unknown))
	}
	return append(files, c.igDir(cluster).Join(g.Name)), nil
}

// DeleteInstanceGroup removes a group and its node files under the store lock; the node-file ledger
// is settled by the next `kops update cluster`.
func (c *Clientset) DeleteInstanceGroup(cluster string, g *kops.InstanceGroup) error {
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	files, err := c.InstanceGroupFiles(cluster, g)
	if err != nil {
		return err
	}
	for _, p := range files[:len(files)-1] {
		if err := p.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deleting instance group %q: %w; the group is still in the store, run the delete again", g.Name, err)
		}
	}
	if len(files) > 1 {
		if err := c.nodeFilesDir(cluster, g).RemoveDir(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deleting instance group %q: %w; the group is still in the store, run the delete again", g.Name, err)
		}
	}
	return files[len(files)-1].Remove()
}

// nodeFilesDir mirrors nodesetup.IGConfigDir; the store does not import the model.
func (c *Clientset) nodeFilesDir(cluster string, g *kops.InstanceGroup) vfs.Path {
	role := string(g.Spec.Role)
	if g.IsControlPlane() {
		role = string(kops.RoleControlPlane)
	}
	return c.clusterDir(cluster).Join("igconfig", strings.ToLower(role), g.Name)
}
