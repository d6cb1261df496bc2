package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops/validation"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

type createClusterOptions struct {
	cloudup.NewClusterOptions
	DryRun bool
	Yes    bool
	Output string
	Add    []string
}

// NewCmdCreateCluster is `kops create cluster`.
func NewCmdCreateCluster(f *Factory) *cobra.Command {
	o := &createClusterOptions{}
	cmd := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Create a cluster configuration in the state store",
		Example: `  KOPS_FEATURE_FLAGS=ClusterAddons,UseAddonOperators \
    kops create cluster addons.k8s.local --zones us-east-2a --state file://$PWD/.state`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			o.Name = name
			if err := runCreateCluster(f, o); err != nil || !o.Yes {
				return err
			}
			return runUpdateCluster(cmd.Context(), f, name, updateOptions{yes: true, target: cloudup.TargetDirect})
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&o.Zones, "zones", nil, "Zones in which to run the cluster, e.g. us-east-2a,us-east-2b")
	fl.StringSliceVar(&o.ControlPlaneZones, "control-plane-zones", nil, "Zones in which to run control-plane nodes (default: every zone)")
	fl.StringVar(&o.CloudProvider, "cloud", "", "Cloud provider (default aws)")
	fl.StringVar(&o.Channel, "channel", "", "Channel of recommended versions and addons: stable, alpha, none, or a file:// URL (default stable)")
	fl.StringVar(&o.KubernetesVersion, "kubernetes-version", "", "Kubernetes version (default "+cloudup.DefaultKubernetesVersion+")")
	fl.StringVar(&o.NetworkCIDR, "network-cidr", "", "Network CIDR of the cluster (default "+cloudup.DefaultNetworkCIDR+")")
	fl.Int32Var(&o.NodeCount, "node-count", 0, "Number of nodes (default 1)")
	fl.StringVar(&o.NodeSize, "node-size", "", "Machine type of the nodes")
	fl.StringVar(&o.ControlPlaneSize, "control-plane-size", "", "Machine type of the control-plane nodes")
	fl.StringVar(&o.Image, "image", "", "Machine image of every instance group")
	fl.BoolVar(&o.DryRun, "dry-run", false, "Print the objects instead of storing them (needs -o)")
	fl.BoolVarP(&o.Yes, "yes", "y", false, "Also write the cluster's addons at once, as 'kops update cluster --yes' does")
	fl.StringVarP(&o.Output, "output", "o", "", "Output format for --dry-run: yaml or json")
	if f.Flags.Enabled(featureflag.ClusterAddons) {
		fl.StringSliceVar(&o.Add, "add", nil, "Files of Kubernetes objects to store as addons of the cluster")
	}
	return cmd
}

func runCreateCluster(f *Factory, o *createClusterOptions) error {
	if o.Output != "" && !o.DryRun {
		return errors.New("-o is only used with --dry-run")
	}
	if o.Yes && o.DryRun {
		return errors.New("--yes and --dry-run contradict each other")
	}
	if o.DryRun {
		if err := checkOutput(o.Output, outputYAML, outputJSON); err != nil {
			return fmt.Errorf("--dry-run needs -o yaml or -o json: %w", err)
		}
	}
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, groups, err := cloudup.NewCluster(o.NewClusterOptions)
	if err != nil {
		return err
	}
	addons, err := readAddonFiles(f, o.Add)
	if err != nil {
		return err
	}
	// The same checks as every other way into the store; the flag a refused field came from is named.
	checked := cloudup.Check(cluster, groups, clientset.Base().String(), true)
	checked.ClusterErrors = withFlags(checked.ClusterErrors)
	if err := checked.Err(cluster.Name, nil, nil); err != nil {
		return err
	}
	if errs := f.checkChannel(cluster); errs != nil {
		return cloudup.FieldErrors(fmt.Sprintf("cluster %q is not valid:", cluster.Name), withFlags(errs))
	}

	if o.DryRun {
		return printNewCluster(f, o.Output, client.NewCluster{Cluster: cluster, InstanceGroups: groups, Addons: addons})
	}
	if err := clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups, Addons: addons}); err != nil {
		return err
	}
	name := cluster.Name
	if o.Yes {
		fmt.Fprintf(f.Out, "Cluster configuration has been created in %s.\n\n", clientset.Base())
		return nil
	}
	fmt.Fprintf(f.Out, `Cluster configuration has been created in %s.

Suggestions:
 * list clusters with: kops get clusters
 * edit this cluster with: kops edit cluster %s
 * edit the nodes with: kops edit ig --name=%s nodes

Finally configure the cluster with: kops update cluster --name %s --yes
`, clientset.Base(), name, name, name)
	return nil
}

// flagOf names the flag of create cluster that a field of the new cluster is made from, or "".
func flagOf(path string) string {
	subnetField := func(name string) bool {
		return strings.HasPrefix(path, "spec.subnets[") && strings.HasSuffix(path, "]."+name)
	}
	switch {
	case path == "spec.kubernetesVersion":
		return "--kubernetes-version"
	case path == "spec.networkCIDR", subnetField("cidr"):
		return "--network-cidr"
	case subnetField("zone"), subnetField("region"):
		return "--zones"
	case path == "spec.cloudProvider":
		return "--cloud"
	case path == "spec.channel":
		return "--channel"
	}
	return ""
}

// withFlags adds to each error the flag its field was made from, so that the user sees what to
// change on the command line.
func withFlags(errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		if flag := flagOf(e.Field); flag != "" {
			named := *e
			named.Detail = strings.TrimPrefix(named.Detail+" (from "+flag+")", " ")
			e = &named
		}
		out = append(out, e)
	}
	return out
}

// readAddonFiles reads --add files, which may hold only other objects, and checks their names
// now rather than when they are applied.
func readAddonFiles(f *Factory, files []string) ([]*unstructured.Unstructured, error) {
	var docs []*kopscodecs.Object
	var found problems
	for _, name := range files {
		data, err := readInput(f.In, name)
		if err != nil {
			return nil, err
		}
		objs, warnings, err := kopscodecs.Decode(name, data, true)
		f.Warn(warnings)
		if err != nil {
			found.add(err)
			continue
		}
		if len(objs) == 0 {
			found.add(fmt.Errorf("no objects found in --add file %s", name))
		}
		for _, o := range objs {
			if o.Addon == nil {
				found.add(o.Problem(errors.New("--add files hold other objects only; create clusters, instance groups and SSH credentials with 'kops create -f'")))
				continue
			}
			docs = append(docs, o)
		}
	}
	found = append(found, checkAdditionalObjects(docs)...)
	if err := found.err(); err != nil {
		return nil, err
	}
	addons := make([]*unstructured.Unstructured, 0, len(docs))
	for _, d := range docs {
		addons = append(addons, d.Addon)
	}
	return addons, nil
}

// checkAdditionalObjects locates the problems of objects stored with a cluster in their documents.
func checkAdditionalObjects(docs []*kopscodecs.Object) problems {
	objs := make([]*unstructured.Unstructured, 0, len(docs))
	for _, d := range docs {
		objs = append(objs, d.Addon)
	}
	var found problems
	for i, errs := range validation.ValidateAdditionalObjects(objs) {
		if len(errs) > 0 {
			found.add(docs[i].FieldErrors(errs))
		}
	}
	return found
}

func printNewCluster(f *Factory, format string, n client.NewCluster) error {
	var docs [][]byte
	data, err := kopscodecs.EncodeCluster(n.Cluster)
	if err != nil {
		return err
	}
	docs = append(docs, data)
	for _, g := range n.InstanceGroups {
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	for _, a := range n.Addons {
		data, err := kopscodecs.EncodeAddons([]*unstructured.Unstructured{a})
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	return printDocuments(f.Out, format, docs)
}
