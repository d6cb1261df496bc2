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
		Long: "Create clusters and instance groups from kops.k8s.io/v1alpha2 YAML files. An SSHCredential stores\n" +
			"an SSH public key for its cluster; any other object (a KubeSchedulerConfiguration, a ConfigMap, ...)\n" +
			"is stored as an additional object of the one Cluster in the files.",
		Args: cobra.NoArgs,
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

// runCreateFiles validates everything in the files before it stores anything.
func runCreateFiles(f *Factory, files []string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	set, err := readFiles(f, files)
	if err != nil {
		return err
	}
	found := checkAdditionalObjects(set.addons)
	if len(set.addons) > 0 && len(set.clusters) != 1 {
		for _, doc := range set.addons {
			found.add(doc.Problem(fmt.Errorf(
				"an additional object is stored with the one Cluster of the files it comes in; these files hold %d clusters",
				len(set.clusters))))
		}
	}

	var creates []client.NewCluster
	newClusters := map[string]*kopscodecs.Object{}
	for _, doc := range set.clusters {
		c := doc.Cluster
		if first, seen := newClusters[c.Name]; seen {
			found.add(at(doc, field.Invalid(namePath, c.Name, "a second Cluster of this name; the first is "+first.Where())))
			continue
		}
		newClusters[c.Name] = doc
		if bad := nameErrors(doc, c.Name); bad != nil {
			found.add(bad)
			continue
		}
		if exists, err := clientset.ClusterExists(c.Name); err != nil {
			return err
		} else if exists {
			found.add(at(doc, field.Invalid(namePath, c.Name, fmt.Sprintf(
				"already exists in state store %s; use 'kops edit cluster %s' to change it", clientset.Base(), c.Name))))
			continue
		}
		groupDocs := set.groups[c.Name]
		groups := instanceGroups(groupDocs)
		checked := cloudup.Check(c, groups, clientset.Base().String(), false)
		if err := checked.Err(c.Name, doc, groupDocs); err != nil {
			found.add(err)
			continue
		}
		if errs := f.checkChannel(c); errs != nil {
			found.add(doc.FieldErrors(errs))
			continue
		}
		n := client.NewCluster{Cluster: c, InstanceGroups: groups}
		for _, a := range set.addons {
			n.Addons = append(n.Addons, a.Addon)
		}
		for _, k := range set.sshKeys[c.Name] {
			n.SSHPublicKeys = append(n.SSHPublicKeys, k.SSHCredential.Spec.PublicKey)
		}
		creates = append(creates, n)
	}

	// Groups and keys of clusters that are already stored are added to them.
	stored := storedClusters(set, newClusters)
	for _, s := range stored {
		found = append(found, checkStoredCluster(f, clientset, s)...)
	}
	if err := found.err(); err != nil {
		return err
	}

	for _, n := range creates {
		if err := clientset.CreateCluster(n); err != nil {
			return err
		}
		fmt.Fprintf(f.Out, "Created cluster/%s\n", n.Cluster.Name)
		for _, g := range n.InstanceGroups {
			fmt.Fprintf(f.Out, "Created instancegroup/%s\n", g.Name)
		}
		if len(n.SSHPublicKeys) > 0 {
			fmt.Fprintf(f.Out, "Added %d SSH public keys to cluster %s\n", len(n.SSHPublicKeys), n.Cluster.Name)
		}
		if len(n.Addons) > 0 {
			fmt.Fprintf(f.Out, "Created %d additional objects for cluster %s\n", len(n.Addons), n.Cluster.Name)
		}
	}
	for _, s := range stored {
		for _, doc := range s.groups {
			if err := clientset.CreateInstanceGroup(s.name, doc.InstanceGroup); err != nil {
				return err
			}
			fmt.Fprintf(f.Out, "Created instancegroup/%s\n", doc.InstanceGroup.Name)
		}
		for _, doc := range s.sshKeys {
			if err := clientset.AddSSHPublicKey(s.name, doc.SSHCredential.Spec.PublicKey); err != nil {
				return err
			}
			fmt.Fprintf(f.Out, "Added an SSH public key to cluster %s\n", s.name)
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
