package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// NewCmdCreate is `kops create -f FILE` and the parent of `kops create cluster`.
func NewCmdCreate(f *Factory) *cobra.Command {
	var files []string
	cmd := &cobra.Command{
		Use:   "create -f FILENAME",
		Short: "Create clusters and instance groups from files",
		Long: "Create clusters and instance groups from kops.k8s.io/v1alpha2 YAML files. With the ClusterAddons\n" +
			"feature flag, other Kubernetes objects in the files are stored as addons of the cluster.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(files) == 0 {
				return errors.New("specify the files to create with -f (use - for standard input), or use 'kops create cluster'")
			}
			return runCreateFiles(f, files)
		},
	}
	cmd.Flags().StringSliceVarP(&files, "filename", "f", nil, "Files to create (- for standard input)")
	cmd.AddCommand(NewCmdCreateCluster(f))
	return cmd
}

// fileSet is what the files of one `kops create -f` hold, grouped by cluster.
type fileSet struct {
	clusters []*kopscodecs.Object
	groups   map[string][]*kopscodecs.Object
	addons   []*unstructured.Unstructured
}

func readFiles(f *Factory, files []string) (*fileSet, error) {
	set := &fileSet{groups: map[string][]*kopscodecs.Object{}}
	var problems []string
	for _, name := range files {
		data, err := readInput(f.In, name)
		if err != nil {
			return nil, err
		}
		objs, warnings, err := kopscodecs.Decode(name, data, f.Flags.Enabled(featureflag.ClusterAddons))
		f.Warn(warnings)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, o := range objs {
			switch {
			case o.Cluster != nil:
				set.clusters = append(set.clusters, o)
			case o.InstanceGroup != nil:
				owner := o.InstanceGroup.Labels[kops.LabelClusterName]
				if owner == "" {
					problems = append(problems, fmt.Sprintf("%s: %s: metadata.labels[%s]: Required value: the cluster this group belongs to", name, o.Describe(), kops.LabelClusterName))
					continue
				}
				set.groups[owner] = append(set.groups[owner], o)
			default:
				set.addons = append(set.addons, o.Addon)
			}
		}
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return set, nil
}

func readInput(stdin io.Reader, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return data, nil
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
	if len(set.addons) > 0 && len(set.clusters) != 1 {
		return errors.New("addon objects must be created in the same files as exactly one Cluster, which they belong to")
	}

	var creates []client.NewCluster
	var problems []string
	newClusters := map[string]bool{}
	for _, doc := range set.clusters {
		c := doc.Cluster
		if newClusters[c.Name] {
			problems = append(problems, fmt.Sprintf("cluster %q is defined twice", c.Name))
			continue
		}
		newClusters[c.Name] = true
		if exists, err := clientset.ClusterExists(c.Name); err != nil {
			return err
		} else if exists {
			problems = append(problems, fmt.Sprintf("cluster %q already exists in state store %s; use 'kops edit cluster %s' to change it", c.Name, clientset.Base(), c.Name))
			continue
		}
		groupDocs := set.groups[c.Name]
		groups := instanceGroups(groupDocs)
		checked := cloudup.Check(c, groups, clientset.Base().String(), false)
		if err := checked.Err(c.Name, doc, groupDocs); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if errs := f.checkChannel(c); errs != nil {
			problems = append(problems, doc.FieldErrors(errs).Error())
			continue
		}
		creates = append(creates, client.NewCluster{Cluster: c, InstanceGroups: groups, Addons: set.addons})
	}
	// Groups of clusters that are already stored are added to them.
	var owners []string
	for owner := range set.groups {
		if !newClusters[owner] {
			owners = append(owners, owner)
		}
	}
	sort.Strings(owners)
	var added []*kopscodecs.Object
	for _, owner := range owners {
		found, err := checkGroupsOfStoredCluster(f, clientset, owner, set.groups[owner])
		if err != nil {
			return err
		}
		problems = append(problems, found...)
		added = append(added, set.groups[owner]...)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}

	for _, n := range creates {
		if err := clientset.CreateCluster(n); err != nil {
			return err
		}
		fmt.Fprintf(f.Out, "Created cluster/%s\n", n.Cluster.Name)
		for _, g := range n.InstanceGroups {
			fmt.Fprintf(f.Out, "Created instancegroup/%s\n", g.Name)
		}
		if len(n.Addons) > 0 {
			fmt.Fprintf(f.Out, "Created %d addon objects for cluster %s\n", len(n.Addons), n.Cluster.Name)
		}
	}
	for _, doc := range added {
		g := doc.InstanceGroup
		if err := clientset.UpdateInstanceGroup(g.Labels[kops.LabelClusterName], g); err != nil {
			return err
		}
		fmt.Fprintf(f.Out, "Created instancegroup/%s\n", g.Name)
	}
	return nil
}

// checkGroupsOfStoredCluster checks new groups of a cluster already in the store against it and
// its other groups, and returns the problems found.
func checkGroupsOfStoredCluster(f *Factory, clientset *client.Clientset, owner string, docs []*kopscodecs.Object) ([]string, error) {
	cluster, warnings, err := clientset.GetCluster(owner)
	f.Warn(warnings)
	if errors.Is(err, client.ErrClusterNotFound) {
		return []string{fmt.Sprintf("instance groups name cluster %q, which is neither in the files nor in state store %s", owner, clientset.Base())}, nil
	}
	if err != nil {
		return nil, err
	}
	existing, warnings, err := clientset.ListInstanceGroups(owner)
	f.Warn(warnings)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, doc := range docs {
		for _, g := range existing {
			if g.Name == doc.InstanceGroup.Name {
				problems = append(problems, fmt.Sprintf("instance group %q already exists in cluster %q; use 'kops edit ig --name %s %s' to change it", g.Name, owner, owner, g.Name))
			}
		}
	}
	all := append(append([]*kops.InstanceGroup(nil), existing...), instanceGroups(docs)...)
	checked := cloudup.Check(cluster, all, clientset.Base().String(), false)
	// Only the new groups are this command's business; the stored ones were checked when stored.
	checked.ClusterErrors = nil
	checked.GroupErrors = checked.GroupErrors[len(existing):]
	if err := checked.Err(owner, nil, docs); err != nil {
		problems = append(problems, err.Error())
	}
	return problems, nil
}

func instanceGroups(docs []*kopscodecs.Object) []*kops.InstanceGroup {
	out := make([]*kops.InstanceGroup, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.InstanceGroup)
	}
	return out
}
