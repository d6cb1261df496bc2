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
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

type NewCluster struct {
	Cluster        *kops.Cluster
	InstanceGroups []*kops.InstanceGroup
	Addons         []*unstructured.Unstructured
	SSHPublicKeys  []string
}

var ErrConflict = errors.New("changed in the state store since it was read")

// CreateCluster stores a new cluster under the store lock, refusing one that exists. Everything is
// encoded first and the config is written last, so a failure never leaves a cluster that looks complete.
func (c *Clientset) CreateCluster(n NewCluster) error {
	name := n.Cluster.Name
	if err := ValidateClusterName(name); err != nil {
		return err
	}
	writes := map[string][]byte{}
	var order []vfs.Path
	add := func(p vfs.Path, data []byte) error {
		if _, dup := writes[p.String()]; dup {
			return fmt.Errorf("instance group %q is given twice", p.Base())
		}
		writes[p.String()] = data
		order = append(order, p)
		return nil
	}
	for _, g := range n.InstanceGroups {
		if err := ValidateInstanceGroupName(g.Name); err != nil {
			return err
		}
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return fmt.Errorf("encoding instance group %q: %w", g.Name, err)
		}
		if err := add(c.igDir(name).Join(g.Name), data); err != nil {
			return err
		}
	}
	if len(n.Addons) > 0 {
		data, err := kopscodecs.EncodeAddons(n.Addons)
		if err != nil {
			return err
		}
		_ = add(c.addonsPath(name), data)
	}
	for _, key := range n.SSHPublicKeys {
		p, err := c.sshPublicKeyPath(name, key)
		if err != nil {
			return err
		}
		if _, dup := writes[p.String()]; dup {
			continue
		}
		_ = add(p, []byte(key))
	}
	data, err := kopscodecs.EncodeCluster(n.Cluster)
	if err != nil {
		return fmt.Errorf("encoding cluster %q: %w", name, err)
	}
	_ = add(c.configPath(name), data)

	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	exists, err := c.configPath(name).Exists()
	if err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("cluster %q already exists in state store %s; use 'kops edit cluster %s' to change it, or 'kops delete cluster %s --yes' first", name, c.base, name, name)
	}
	// Files left by a create that did not finish must not join this cluster (a stray SSH key would
	// let its owner in), nor stand in its way: with no config, every file there is such a leftover.
	if err := c.removeStrayFiles(name); err != nil {
		return err
	}
	made, err := missingFolders(c.base, order)
	if err != nil {
		return err
	}
	for i, p := range order {
		// Created only where none is (S3: If-None-Match), so a create racing past a lost lease replaces nothing.
		if err := vfs.CreateFile(p, writes[p.String()]); err != nil {
			if errors.Is(err, fs.ErrExist) {
				err = fmt.Errorf("%w: %s was stored by another command meanwhile", ErrConflict, p)
			}
			for _, done := range order[:i] {
				_ = done.Remove()
			}
			for _, dir := range made {
				_ = dir.RemoveDir() // only while empty: a folder someone filled meanwhile stays
			}
			return fmt.Errorf("storing cluster %q: %w", name, err)
		}
	}
	return nil
}

// missingFolders lists, deepest first, the folders writing files would make, so a failed create can
// remove them.
func missingFolders(base vfs.Path, files []vfs.Path) ([]vfs.Path, error) {
	seen := map[string]bool{}
	var missing []vfs.Path
	for _, f := range files {
		for dir := f.Dir(); dir.String() != base.String() && !seen[dir.String()]; dir = dir.Dir() {
			seen[dir.String()] = true
			exists, err := dir.Exists()
			if err != nil {
				return nil, err
			}
			if !exists {
				missing = append(missing, dir)
			}
		}
	}
	slices.SortFunc(missing, func(a, b vfs.Path) int { return len(b.String()) - len(a.String()) })
	return missing, nil
}

func (c *Clientset) removeStrayFiles(cluster string) error {
	dir := c.clusterDir(cluster)
	for _, folder := range []vfs.Path{c.igDir(cluster), dir.Join("clusteraddons"), dir.Join("pki", "ssh", "public", "admin")} {
		files, err := folder.ReadDir()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := f.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing %s, left by an earlier create that did not finish: %w", f, err)
			}
		}
	}
	return nil
}

func (c *Clientset) UpdateCluster(cluster *kops.Cluster) error {
	return c.updateCluster(cluster, nil)
}

// UpdateClusterIfUnchanged fails with ErrConflict, changing nothing, unless the stored config is still
// the revision read.
func (c *Clientset) UpdateClusterIfUnchanged(cluster *kops.Cluster, read Revision) error {
	return c.updateCluster(cluster, &read)
}

func (c *Clientset) updateCluster(cluster *kops.Cluster, read *Revision) error {
	name := cluster.Name
	if err := ValidateClusterName(name); err != nil {
		return err
	}
	data, err := kopscodecs.EncodeCluster(cluster)
	if err != nil {
		return fmt.Errorf("encoding cluster %q: %w", name, err)
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return c.replace(c.configPath(name), data, read, fmt.Sprintf("cluster %q", name), name)
}

func (c *Clientset) replace(p vfs.Path, data []byte, read *Revision, what, cluster string) error {
	var version vfs.Version
	if read != nil {
		current, v, err := vfs.ReadFileVersion(p)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s was deleted from state store %s", ErrConflict, what, c.base)
		}
		if err != nil {
			return err
		}
		if revisionOf(current) != *read {
			return fmt.Errorf("%w: %s was changed in state store %s by someone else", ErrConflict, what, c.base)
		}
		version = v
	}
	exists, err := c.configPath(cluster).Exists()
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, cluster, c.base)
	}
	// Compare again where the store can (S3: If-Match), so an edit racing past the lock fails.
	if err := vfs.ReplaceFile(p, data, version); err != nil {
		if errors.Is(err, vfs.ErrPrecondition) {
			return fmt.Errorf("%w: %s was changed in state store %s by someone else", ErrConflict, what, c.base)
		}
		return err
	}
	return nil
}

func (c *Clientset) CreateInstanceGroup(cluster string, g *kops.InstanceGroup) error {
	return c.writeInstanceGroup(cluster, g, nil, true)
}

func (c *Clientset) UpdateInstanceGroup(cluster string, g *kops.InstanceGroup) error {
	return c.writeInstanceGroup(cluster, g, nil, false)
}

// UpdateInstanceGroupIfUnchanged is UpdateClusterIfUnchanged for a group.
func (c *Clientset) UpdateInstanceGroupIfUnchanged(cluster string, g *kops.InstanceGroup, read Revision) error {
	return c.writeInstanceGroup(cluster, g, &read, false)
}

func (c *Clientset) writeInstanceGroup(cluster string, g *kops.InstanceGroup, read *Revision, create bool) error {
	if err := ValidateClusterName(cluster); err != nil {
		return err
	}
	if err := ValidateInstanceGroupName(g.Name); err != nil {
		return err
	}
	data, err := kopscodecs.EncodeInstanceGroup(g)
	if err != nil {
		return fmt.Errorf("encoding instance group %q: %w", g.Name, err)
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	p := c.igDir(cluster).Join(g.Name)
	if create {
		exists, err := c.configPath(cluster).Exists()
		if err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, cluster, c.base)
		}
		err = vfs.CreateFile(p, data)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("instance group %q already exists in cluster %q; use 'kops edit ig --name %s %s' to change it", g.Name, cluster, cluster, g.Name)
		}
		return err
	}
	return c.replace(p, data, read, fmt.Sprintf("instance group %q of cluster %q", g.Name, cluster), cluster)
}

// GetAddons reads the stored addon objects; none is not an error.
func (c *Clientset) GetAddons(cluster string) ([]*unstructured.Unstructured, error) {
	if err := ValidateClusterName(cluster); err != nil {
		return nil, err
	}
	p := c.addonsPath(cluster)
	data, err := p.ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading addons of %q: %w", cluster, err)
	}
	objs, _, err := kopscodecs.Decode(p.String(), data, true)
	if err != nil {
		return nil, err
	}
	addons := make([]*unstructured.Unstructured, 0, len(objs))
	for _, o := range objs {
		if o.Addon == nil {
			return nil, fmt.Errorf("%s: %s is not an addon object", p, o.Describe())
		}
		addons = append(addons, o.Addon)
	}
	return addons, nil
}

func NewClusterFromObjects(objs []*kopscodecs.Object) (NewCluster, error) {
	var n NewCluster
	for _, o := range objs {
		switch {
		case o.Cluster != nil && n.Cluster != nil:
			return NewCluster{}, fmt.Errorf("%s: a second Cluster; give one cluster at a time", o.Describe())
		case o.Cluster != nil:
			n.Cluster = o.Cluster
		case o.InstanceGroup != nil:
			n.InstanceGroups = append(n.InstanceGroups, o.InstanceGroup)
		default:
			n.Addons = append(n.Addons, o.Addon)
		}
	}
	if n.Cluster == nil {
		return NewCluster{}, fmt.Errorf("no Cluster among the documents")
	}
	return n, nil
}
