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

package main

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// NewCmdCreate is `kops create -f FILE` and the parent of `kops create cluster`.
func NewCmdCreate(f *Factory) *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "create -f FILENAME",
		Short: "Create clusters and instance groups from files",
		Long:  longHelp("create"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(files) == 0 {
				return errors.New("specify the files to create with -f (use - for standard input), or use 'kops create cluster'")
			}
			return runCreateFiles(f, files)
		},
	}
	cmd.Flags().StringSliceVarP(&files, "filename", "f", nil, "Files to create (- for standard input)")
	cmd.AddCommand(NewCmdCreateCluster(f), newCmdCreateInstanceGroup(f))
	return cmd
}

// storedCluster is a cluster already in the store that the files add groups or keys to.
type storedCluster struct {
	name    string
	groups  []*kopscodecs.Object
	sshKeys []*kopscodecs.Object
}

// runCreateFiles validates everything in the files before it stores anything: the additional
// objects, the new clusters, and the groups and keys added to stored clusters; then it stores them.
func runCreateFiles(f *Factory, files []string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	set, err := readFiles(f, files)
	if err != nil {
		return err
	}
	found := checkFileAddons(set)
	creates, newClusters, problems, err := planNewClusters(f, clientset, set)
	if err != nil {
		return err
	}
	found = append(found, problems...)
	// Groups and keys of clusters that are already stored are added to them.
	stored := storedClusters(set, newClusters)
	for _, s := range stored {
		found = append(found, checkStoredCluster(f, clientset, s)...)
	}
	if err := found.err(); err != nil {
		return err
	}

	for _, n := range creates {
		if err := storeNewCluster(f, clientset, n); err != nil {
			return err
		}
	}
	for _, s := range stored {
		if err := storeAdditions(f, clientset, s); err != nil {
			return err
		}
	}
	return nil
}

// checkFileAddons checks the additional objects of the files, which are stored with the one
// Cluster of the files.
func checkFileAddons(set *fileSet) problems {
	found := checkAdditionalObjects(set.addons)
	if len(set.addons) > 0 && len(set.clusters) != 1 {
		for _, doc := range set.addons {
			found.add(doc.Problem(fmt.Errorf(
				"an additional object is stored with the one Cluster of the files it comes in; these files hold %d clusters",
				len(set.clusters))))
		}
	}
	return found
}

// planNewClusters checks each Cluster of the files and returns what creating the valid ones
// stores, every Cluster of the files by name, and the problems found. The error is one reading
// the store, which stops everything.
func planNewClusters(f *Factory, clientset *client.Clientset, set *fileSet) ([]client.NewCluster, map[string]*kopscodecs.Object, problems, error) {
	var creates []client.NewCluster
	var found problems
	newClusters := map[string]*kopscodecs.Object{}
	for _, doc := range set.clusters {
		c := doc.Cluster
		if first, seen := newClusters[c.Name]; seen {
			found.add(at(doc, field.Invalid(namePath, c.Name, "a second Cluster of this name; the first is "+first.Where())))
			continue
		}
		newClusters[c.Name] = doc
		problem, err := checkNewCluster(f, clientset, set, doc)
		if err != nil {
			return nil, nil, nil, err
		}
		if problem != nil {
			found.add(problem)
			continue
		}
		creates = append(creates, newCluster(set, c))
	}
	return creates, newClusters, found, nil
}

// checkNewCluster returns what is wrong with a Cluster of the files (its name, its existence in
// the store, the cluster with its groups, its channel), or an error reading the store.
func checkNewCluster(f *Factory, clientset *client.Clientset, set *fileSet, doc *kopscodecs.Object) (problem, err error) {
	c := doc.Cluster
	if bad := nameErrors(doc, c.Name); bad != nil {
		return bad, nil
	}
	exists, err := clientset.ClusterExists(c.Name)
	if err != nil {
		return nil, err
	}
	// From here on, every return is a problem of the cluster, not of the store.
	if exists {
		return at(doc, field.Invalid(namePath, c.Name, fmt.Sprintf(
			"already exists in state store %s; use 'kops edit cluster %s' to change it", clientset.Base(), c.Name))), nil
	}
	groupDocs := set.groups[c.Name]
	checked := cloudup.Check(c, instanceGroups(groupDocs), clientset.Base().String(), false)
	if err := checked.Err(c.Name, doc, groupDocs); err != nil {
		return err, nil
	}
	if errs := f.checkChannel(c); errs != nil {
		return doc.FieldErrors(errs), nil
	}
	return nil, nil
}

// newCluster is what creating cluster c of the files stores: it, its groups and keys, and the
// additional objects of the files.
func newCluster(set *fileSet, c *kops.Cluster) client.NewCluster {
	n := client.NewCluster{Cluster: c, InstanceGroups: instanceGroups(set.groups[c.Name])}
	for _, a := range set.addons {
		n.Addons = append(n.Addons, a.Addon)
	}
	for _, k := range set.sshKeys[c.Name] {
		n.SSHPublicKeys = append(n.SSHPublicKeys, k.SSHCredential.Spec.PublicKey)
	}
	return n
}

// storeNewCluster creates n in the store and says what it stored.
func storeNewCluster(f *Factory, clientset *client.Clientset, n client.NewCluster) error {
	if err := clientset.CreateCluster(n); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f.Out, "Created cluster/%s\n", n.Cluster.Name); err != nil {
		return err
	}
	for _, g := range n.InstanceGroups {
		if _, err := fmt.Fprintf(f.Out, "Created instancegroup/%s\n", g.Name); err != nil {
			return err
		}
	}
	if len(n.SSHPublicKeys) > 0 {
		if _, err := fmt.Fprintf(f.Out, "Added %d SSH public keys to cluster %s\n", len(n.SSHPublicKeys), n.Cluster.Name); err != nil {
			return err
		}
	}
	if len(n.Addons) > 0 {
		if _, err := fmt.Fprintf(f.Out, "Created %d additional objects for cluster %s\n", len(n.Addons), n.Cluster.Name); err != nil {
			return err
		}
	}
	return nil
}

// storeAdditions adds the files' groups and keys to a stored cluster and says what it stored.
func storeAdditions(f *Factory, clientset *client.Clientset, s storedCluster) error {
	for _, doc := range s.groups {
		if err := clientset.CreateInstanceGroup(s.name, doc.InstanceGroup); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(f.Out, "Created instancegroup/%s\n", doc.InstanceGroup.Name); err != nil {
			return err
		}
	}
	for _, doc := range s.sshKeys {
		if err := clientset.AddSSHPublicKey(s.name, doc.SSHCredential.Spec.PublicKey); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(f.Out, "Added an SSH public key to cluster %s\n", s.name); err != nil {
			return err
		}
	}
	return nil
}

// storedClusters lists, sorted by name, the clusters that groups or keys of the files belong to
// and that the files do not create.
func storedClusters(set *fileSet, newClusters map[string]*kopscodecs.Object) []storedCluster {
	byName := map[string]*storedCluster{}
	get := func(name string) *storedCluster {
		if byName[name] == nil {
			byName[name] = &storedCluster{name: name}
		}
		return byName[name]
	}
	for owner, docs := range set.groups {
		if newClusters[owner] == nil {
			get(owner).groups = docs
		}
	}
	for owner, docs := range set.sshKeys {
		if newClusters[owner] == nil {
			get(owner).sshKeys = docs
		}
	}
	out := make([]storedCluster, 0, len(byName))
	for _, s := range byName {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// checkStoredCluster checks new groups and keys for a cluster already in the store, the groups
// against it and its other groups, and returns the problems found.
func checkStoredCluster(f *Factory, clientset *client.Clientset, s storedCluster) problems {
	var found problems
	cluster, warnings, err := clientset.GetCluster(s.name)
	f.Warn(warnings)
	if errors.Is(err, client.ErrClusterNotFound) {
		detail := fmt.Sprintf("names cluster %q, which is neither in the files nor in state store %s", s.name, clientset.Base())
		for _, doc := range append(append([]*kopscodecs.Object(nil), s.groups...), s.sshKeys...) {
			found.add(at(doc, field.Invalid(clusterLabelPath, s.name, detail)))
		}
		return found
	}
	if err != nil {
		found.add(err)
		return found
	}
	if len(s.groups) == 0 {
		return found
	}
	existing, warnings, err := clientset.ListInstanceGroups(s.name)
	f.Warn(warnings)
	if err != nil {
		found.add(err)
		return found
	}
	for _, doc := range s.groups {
		for _, g := range existing {
			if g.Name == doc.InstanceGroup.Name {
				found.add(at(doc, field.Invalid(namePath, g.Name, fmt.Sprintf(
					"already exists in cluster %q; use 'kops edit ig --name %s %s' to change it", s.name, s.name, g.Name))))
			}
		}
	}
	// A stored group the files name again is reported above; it is left out here so that it is not
	// reported a second time as a duplicate.
	var others []*kops.InstanceGroup
	for _, g := range existing {
		if !slices.ContainsFunc(s.groups, func(d *kopscodecs.Object) bool { return d.InstanceGroup.Name == g.Name }) {
			others = append(others, g)
		}
	}
	all := append(others, instanceGroups(s.groups)...)
	checked := cloudup.Check(cluster, all, clientset.Base().String(), false)
	// Only the new groups are this command's business; the stored ones were checked when stored.
	checked.ClusterErrors = nil
	checked.GroupErrors = checked.GroupErrors[len(others):]
	found.add(checked.Err(s.name, nil, s.groups))
	return found
}

func instanceGroups(docs []*kopscodecs.Object) []*kops.InstanceGroup {
	out := make([]*kops.InstanceGroup, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.InstanceGroup)
	}
	return out
}
