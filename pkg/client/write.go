package client

import (
	"errors"
	"fmt"
	"io/fs"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

// NewCluster is everything `kops create` stores for a cluster.
type NewCluster struct {
	Cluster        *kops.Cluster
	InstanceGroups []*kops.InstanceGroup
	Addons         []*unstructured.Unstructured
	// SSHPublicKeys are keys in authorized_keys form, stored where kops keeps them.
	SSHPublicKeys []string
}

// CreateCluster stores a new cluster; it refuses to overwrite one that exists. Everything is encoded
// before anything is written, and the config, whose presence makes the cluster exist, is written
// last, so a failure never leaves a half-made cluster that looks complete.
func (c *Clientset) CreateCluster(n NewCluster) error {
	name := n.Cluster.Name
	exists, err := c.ClusterExists(name)
	if err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("cluster %q already exists in state store %s; use 'kops edit cluster %s' to change it, or 'kops delete cluster %s --yes' first", name, c.base, name, name)
	}
	writes := map[string][]byte{}
	var order []vfs.Path
	add := func(p vfs.Path, data []byte) {
		writes[p.String()] = data
		order = append(order, p)
	}
	for _, g := range n.InstanceGroups {
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return fmt.Errorf("encoding instance group %q: %w", g.Name, err)
		}
		add(c.igDir(name).Join(g.Name), data)
	}
	if len(n.Addons) > 0 {
		data, err := kopscodecs.EncodeAddons(n.Addons)
		if err != nil {
			return err
		}
		add(c.addonsPath(name), data)
	}
	for _, key := range n.SSHPublicKeys {
		p, err := c.sshPublicKeyPath(name, key)
		if err != nil {
			return err
		}
		add(p, []byte(key))
	}
	data, err := kopscodecs.EncodeCluster(n.Cluster)
	if err != nil {
		return fmt.Errorf("encoding cluster %q: %w", name, err)
	}
	add(c.configPath(name), data)

	// Files left by a create that crashed before writing the config belong to no cluster; they must
	// not become part of this one.
	if err := c.removeStrayGroups(name, writes); err != nil {
		return err
	}
	for i, p := range order {
		if err := p.WriteFile(writes[p.String()]); err != nil {
			for _, done := range order[:i] {
				_ = done.Remove()
			}
			return fmt.Errorf("storing cluster %q: %w", name, err)
		}
	}
	return nil
}

func (c *Clientset) removeStrayGroups(cluster string, keep map[string][]byte) error {
	files, err := c.igDir(cluster).ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, f := range files {
		if _, ok := keep[f.String()]; !ok {
			if err := f.Remove(); err != nil {
				return fmt.Errorf("removing stray instance group %s: %w", f, err)
			}
		}
	}
	return nil
}

// UpdateCluster replaces the stored config of an existing cluster.
func (c *Clientset) UpdateCluster(cluster *kops.Cluster) error {
	exists, err := c.ClusterExists(cluster.Name)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, cluster.Name, c.base)
	}
	data, err := kopscodecs.EncodeCluster(cluster)
	if err != nil {
		return fmt.Errorf("encoding cluster %q: %w", cluster.Name, err)
	}
	return c.configPath(cluster.Name).WriteFile(data)
}

// UpdateInstanceGroup replaces (or adds) one instance group of an existing cluster.
func (c *Clientset) UpdateInstanceGroup(cluster string, g *kops.InstanceGroup) error {
	exists, err := c.ClusterExists(cluster)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, cluster, c.base)
	}
	data, err := kopscodecs.EncodeInstanceGroup(g)
	if err != nil {
		return fmt.Errorf("encoding instance group %q: %w", g.Name, err)
	}
	return c.igDir(cluster).Join(g.Name).WriteFile(data)
}

// GetAddons reads the cluster's stored addon objects; none is not an error.
func (c *Clientset) GetAddons(cluster string) ([]*unstructured.Unstructured, error) {
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

// DeleteCluster removes everything the store holds for a cluster.
func (c *Clientset) DeleteCluster(name string) error {
	exists, err := c.ClusterExists(name)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	return c.clusterDir(name).RemoveAll()
}

// NewClusterFromObjects gathers the decoded documents of one cluster (its Cluster, InstanceGroups
// and addon objects) into what CreateCluster stores.
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
