// Package client is the state store seen as a clientset: clusters, their instance groups and their
// addon objects, in kops's layout, so that a store written by kops can be read here and back:
//
//	<store>/<cluster>/config                   the Cluster
//	<store>/<cluster>/instancegroup/<name>     each InstanceGroup
//	<store>/<cluster>/clusteraddons/default    the addon objects, as one YAML stream
//	<store>/<cluster>/pki/ssh/public/admin/<id> each SSH public key (id: its MD5 fingerprint in hex)
package client

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"syscall"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

// ErrClusterNotFound is returned, wrapped, for a cluster that has no config in the store.
var ErrClusterNotFound = errors.New("cluster not found")

// Clientset reads and writes one state store.
type Clientset struct {
	base vfs.Path
}

// New returns a clientset over the state store at base.
func New(base vfs.Path) *Clientset {
	return &Clientset{base: base}
}

// Base is the store's root, as the user named it.
func (c *Clientset) Base() vfs.Path { return c.base }

func (c *Clientset) clusterDir(name string) vfs.Path { return c.base.Join(name) }
func (c *Clientset) configPath(name string) vfs.Path { return c.clusterDir(name).Join("config") }
func (c *Clientset) igDir(cluster string) vfs.Path {
	return c.clusterDir(cluster).Join("instancegroup")
}
func (c *Clientset) addonsPath(cluster string) vfs.Path {
	return c.clusterDir(cluster).Join("clusteraddons", "default")
}

// ListClusters names every cluster in the store, sorted.
func (c *Clientset) ListClusters() ([]string, error) {
	dirs, err := c.base.ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing clusters in %s: %w", c.base, err)
	}
	var names []string
	for _, d := range dirs {
		ok, err := d.Join("config").Exists()
		if errors.Is(err, syscall.ENOTDIR) {
			continue // a file at the root of the store, not a cluster directory
		}
		if err != nil {
			return nil, err
		}
		if ok {
			names = append(names, d.Base())
		}
	}
	sort.Strings(names)
	return names, nil
}

// ClusterExists says whether the store has a config for the named cluster.
func (c *Clientset) ClusterExists(name string) (bool, error) {
	return c.configPath(name).Exists()
}

// GetCluster reads a cluster. The warnings name fields the store holds that this build does not model.
func (c *Clientset) GetCluster(name string) (*kops.Cluster, []kopscodecs.Warning, error) {
	p := c.configPath(name)
	data, err := p.ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading cluster %q: %w", name, err)
	}
	objs, warnings, err := kopscodecs.Decode(p.String(), data, false)
	if err != nil {
		return nil, warnings, err
	}
	if len(objs) != 1 || objs[0].Cluster == nil {
		return nil, warnings, fmt.Errorf("%s does not hold exactly one Cluster", p)
	}
	return objs[0].Cluster, warnings, nil
}

// ListInstanceGroups reads every instance group of a cluster, sorted by name.
func (c *Clientset) ListInstanceGroups(cluster string) ([]*kops.InstanceGroup, []kopscodecs.Warning, error) {
	files, err := c.igDir(cluster).ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("listing instance groups of %q: %w", cluster, err)
	}
	var groups []*kops.InstanceGroup
	var warnings []kopscodecs.Warning
	for _, f := range files {
		g, w, err := c.readInstanceGroup(f)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	return groups, warnings, nil
}

// GetInstanceGroup reads one instance group of a cluster.
func (c *Clientset) GetInstanceGroup(cluster, name string) (*kops.InstanceGroup, []kopscodecs.Warning, error) {
	p := c.igDir(cluster).Join(name)
	if ok, err := p.Exists(); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("no instance group %q in cluster %q", name, cluster)
		}
		return nil, nil, err
	}
	return c.readInstanceGroup(p)
}

func (c *Clientset) readInstanceGroup(p vfs.Path) (*kops.InstanceGroup, []kopscodecs.Warning, error) {
	data, err := p.ReadFile()
	if err != nil {
		return nil, nil, fmt.Errorf("reading instance group %s: %w", p, err)
	}
	objs, warnings, err := kopscodecs.Decode(p.String(), data, false)
	if err != nil {
		return nil, warnings, err
	}
	if len(objs) != 1 || objs[0].InstanceGroup == nil {
		return nil, warnings, fmt.Errorf("%s does not hold exactly one InstanceGroup", p)
	}
	return objs[0].InstanceGroup, warnings, nil
}
