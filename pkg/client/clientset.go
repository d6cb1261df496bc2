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
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"syscall"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

var ErrClusterNotFound = errors.New("cluster not found")

// Clientset reads and writes one state store and resolves the paths a cluster names through Paths.
type Clientset struct {
	base  vfs.Path
	paths *vfs.Context
}

// New returns a clientset over base, resolving other paths next to it (vfs.ContextOf).
func New(base vfs.Path) *Clientset {
	return &Clientset{base: base, paths: vfs.ContextOf(base)}
}

func Open(paths *vfs.Context, state string) (*Clientset, error) {
	base, err := paths.ParsePath(state)
	if err != nil {
		return nil, err
	}
	return &Clientset{base: base, paths: paths}, nil
}

func (c *Clientset) Paths() *vfs.Context { return c.paths }

func (c *Clientset) Base() vfs.Path { return c.base }

func (c *Clientset) clusterDir(name string) vfs.Path { return c.base.Join(name) }
func (c *Clientset) configPath(name string) vfs.Path { return c.clusterDir(name).Join("config") }
func (c *Clientset) igDir(cluster string) vfs.Path {
	return c.clusterDir(cluster).Join("instancegroup")
}
func (c *Clientset) addonsPath(cluster string) vfs.Path {
	return c.clusterDir(cluster).Join("clusteraddons", "default")
}

// lockPath is the store-wide lock every mutation holds, so concurrent creates of one name cannot mix
// and compare-and-swap compares what it replaces. The kernel drops a killed command's lock.
func (c *Clientset) lockPath() vfs.Path { return c.base.Join(".kops" + vfs.LockSuffix) }

func (c *Clientset) lock() (func(), error) {
	unlock, err := c.lockPath().Lock()
	if err != nil {
		return nil, fmt.Errorf("locking state store %s: %w", c.base, err)
	}
	return unlock, nil
}

// ListClusters names, sorted, the folders holding a config; GetCluster may still fail for one.
func (c *Clientset) ListClusters() ([]string, error) {
	dirs, err := c.base.ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing clusters in %s: %w", c.base, err)
	}
	// One read per folder, in bounded parallel: on S3 each check is a request.
	found := make([]bool, len(dirs))
	errs := make([]error, len(dirs))
	inParallel(len(dirs), func(i int) {
		ok, err := dirs[i].Join("config").Exists()
		if errors.Is(err, syscall.ENOTDIR) {
			return
		}
		found[i], errs[i] = ok, err
	})
	var names []string
	for i, d := range dirs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if found[i] {
			names = append(names, d.Base())
		}
	}
	sort.Strings(names)
	return names, nil
}

func (c *Clientset) ClusterExists(name string) (bool, error) {
	if err := ValidateClusterName(name); err != nil {
		return false, err
	}
	return c.configPath(name).Exists()
}

type Revision string

func revisionOf(data []byte) Revision {
	sum := sha256.Sum256(data)
	return Revision(hex.EncodeToString(sum[:]))
}

// GetCluster reads a cluster; the warnings name stored fields this build does not model.
func (c *Clientset) GetCluster(name string) (*kops.Cluster, []kopscodecs.Warning, error) {
	cluster, _, warnings, err := c.GetClusterRevision(name)
	return cluster, warnings, err
}

func (c *Clientset) GetClusterRevision(name string) (*kops.Cluster, Revision, []kopscodecs.Warning, error) {
	if err := ValidateClusterName(name); err != nil {
		return nil, "", nil, err
	}
	p := c.configPath(name)
	data, err := p.ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil, fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	if err != nil {
		return nil, "", nil, fmt.Errorf("reading cluster %q: %w", name, err)
	}
	objs, warnings, err := kopscodecs.Decode(p.String(), data, false)
	if err != nil {
		return nil, "", warnings, err
	}
	if len(objs) != 1 || objs[0].Cluster == nil {
		return nil, "", warnings, fmt.Errorf("%s does not hold exactly one Cluster", p)
	}
	cluster := objs[0].Cluster
	if cluster.Name != name {
		return nil, "", warnings, fmt.Errorf("%w: %s: metadata.name is %q but the cluster's folder is %q; "+
			"fix metadata.name or rename the folder (kops finds a cluster by its folder)", ErrNameMismatch, p, cluster.Name, name)
	}
	return cluster, revisionOf(data), warnings, nil
}

// ErrNameMismatch: a document whose metadata.name is not its folder's or file's name is not acted on
// under either name.
var ErrNameMismatch = errors.New("stored under another name")

func (c *Clientset) ListInstanceGroups(cluster string) ([]*kops.InstanceGroup, []kopscodecs.Warning, error) {
	if err := ValidateClusterName(cluster); err != nil {
		return nil, nil, err
	}
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
		g, _, w, err := c.readInstanceGroup(f)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	return groups, warnings, nil
}

func (c *Clientset) GetInstanceGroup(cluster, name string) (*kops.InstanceGroup, []kopscodecs.Warning, error) {
	g, _, warnings, err := c.GetInstanceGroupRevision(cluster, name)
	return g, warnings, err
}

func (c *Clientset) GetInstanceGroupRevision(cluster, name string) (*kops.InstanceGroup, Revision, []kopscodecs.Warning, error) {
	if err := ValidateClusterName(cluster); err != nil {
		return nil, "", nil, err
	}
	if err := ValidateInstanceGroupName(name); err != nil {
		return nil, "", nil, err
	}
	g, rev, warnings, err := c.readInstanceGroup(c.igDir(cluster).Join(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil, fmt.Errorf("no instance group %q in cluster %q", name, cluster)
	}
	return g, rev, warnings, err
}

func (c *Clientset) readInstanceGroup(p vfs.Path) (*kops.InstanceGroup, Revision, []kopscodecs.Warning, error) {
	if err := ValidateInstanceGroupName(p.Base()); err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", p, err)
	}
	data, err := p.ReadFile()
	if err != nil {
		return nil, "", nil, fmt.Errorf("reading instance group %s: %w", p, err)
	}
	objs, warnings, err := kopscodecs.Decode(p.String(), data, false)
	if err != nil {
		return nil, "", warnings, err
	}
	if len(objs) != 1 || objs[0].InstanceGroup == nil {
		return nil, "", warnings, fmt.Errorf("%s does not hold exactly one InstanceGroup", p)
	}
	g := objs[0].InstanceGroup
	if g.Name != p.Base() {
		return nil, "", warnings, fmt.Errorf("%w: %s: metadata.name is %q but the file is named %q; fix metadata.name or rename the file",
			ErrNameMismatch, p, g.Name, p.Base())
	}
	return g, revisionOf(data), warnings, nil
}
