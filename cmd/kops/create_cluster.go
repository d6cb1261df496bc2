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
	"io"
	"reflect"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/commands"
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
	Set    setFlags
	Target string
	Out    string
}

// NewCmdCreateCluster is `kops create cluster`.
func NewCmdCreateCluster(f *Factory) *cobra.Command {
	o := &createClusterOptions{}
	cmd := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Create a cluster configuration in the state store",
		Long:  longHelp("create_cluster"),
		Example: `  KOPS_FEATURE_FLAGS=ClusterAddons,UseAddonOperators \
    kops create cluster addons.k8s.local --zones us-east-2a --state file://$PWD/.state`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			o.Name = name
			if (o.Target != "" || o.Out != "") && !o.Yes {
				return errors.New("--target and --out say where --yes writes the cluster's resources: add --yes, or run 'kops update cluster' with them later")
			}
			if err := runCreateCluster(f, o); err != nil || !o.Yes {
				return err
			}
			u := updateOptions{yes: true, target: o.Target, out: o.Out, timeout: defaultUpdateTimeout}
			if u.target == "" {
				u.target = cloudup.TargetDirect
			}
			return runUpdateCluster(cmd.Context(), f, name, u)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&o.Zones, "zones", nil, "Zones in which to run the cluster, e.g. us-east-2a,us-east-2b")
	fl.StringSliceVar(&o.ControlPlaneZones, "control-plane-zones", nil, "Zones in which to run control-plane nodes (default: every zone)")
	fl.StringVar(&o.CloudProvider, "cloud", "", "Cloud provider (default aws)")
	fl.StringVar(&o.Channel, "channel", "", "Channel of recommended versions and addons: stable, alpha, none, or a file:// URL (default stable)")
	fl.StringVar(&o.KubernetesVersion, "kubernetes-version", "", "Kubernetes version (default "+cloudup.DefaultKubernetesVersion+")")
	fl.StringVar(&o.NetworkCIDR, "network-cidr", "", "Network CIDR of the cluster (default "+cloudup.DefaultNetworkCIDR+")")
	fl.Int32Var(&o.NodeCount, "node-count", 0, "Number of nodes, shared out over the zones' node groups nodes-<zone> (default one per zone)")
	fl.StringVar(&o.NodeSize, "node-size", "", "Machine type of the nodes")
	fl.StringVar(&o.ControlPlaneSize, "control-plane-size", "", "Machine type of the control-plane nodes")
	fl.StringVar(&o.Image, "image", "", "Machine image of every instance group")
	fl.StringVar(&o.NodeImage, "node-image", "", "Machine image of the nodes (takes precedence over --image)")
	fl.StringVar(&o.ControlPlaneImage, "control-plane-image", "", "Machine image of the control-plane nodes (takes precedence over --image)")
	fl.StringVar(&o.Authorization, "authorization", "", "Authorization mode: RBAC or AlwaysAllow (default RBAC)")
	fl.BoolVar(&o.DryRun, "dry-run", false, "Print the objects instead of storing them (needs -o)")
	fl.BoolVarP(&o.Yes, "yes", "y", false, "Also write the cluster's addons at once, as 'kops update cluster --yes' does")
	fl.StringVar(&o.Target, "target", "", "With --yes: direct (the default) or terraform, as 'kops update cluster --target'")
	fl.StringVar(&o.Out, "out", "", "With --yes --target terraform: the directory kubernetes.tf and data/ are written to")
	fl.StringVarP(&o.Output, "output", "o", "", "Output format for --dry-run: yaml or json")
	o.Set.add(cmd, "new cluster")
	if f.Flags.Enabled(featureflag.ClusterAddons) {
		fl.StringSliceVar(&o.Add, "add", nil, "Files of Kubernetes objects to store as addons of the cluster")
	}
	addKopsFlags(cmd, false, createClusterKopsFlags()...)
	return cmd
}

// createClusterKopsFlags are the flags of kops's `create cluster` this build does not honour.
// Most set a field of the cluster or its groups that this build does not model; --set sets the
// modeled ones, and 'kops create -f' takes a whole cluster.
func createClusterKopsFlags() []kopsFlag {
	notModeled := func(what string) string {
		return "it sets " + what + ", which this build does not model"
	}
	openstack := notModeled("spec.cloudConfig.openstack")
	etcd := notModeled("spec.etcdClusters (this build renders no etcd)")
	return []kopsFlag{
		{name: "admin-access", why: notModeled("spec.kubernetesApiAccess")},
		{name: "api-loadbalancer-type", why: notModeled("spec.api.loadBalancer")},
		{name: "api-public-name", why: notModeled("spec.api.publicName")},
		{name: "api-ssl-certificate", why: notModeled("spec.api.loadBalancer.sslCertificate")},
		{name: "associate-public-ip", kind: isSwitch, why: notModeled("the groups' spec.associatePublicIP")},
		{name: "bastion", kind: isSwitch, why: "it makes a bastion group for a private topology, which this build does not model"},
		{name: "bastion-image", why: "it sets the image of a bastion group, which this build does not model"},
		{name: "cloud-labels", why: notModeled("spec.cloudLabels")},
		{name: "control-plane-count", why: "it makes one control-plane group per control-plane zone: choose them with --control-plane-zones"},
		{name: "control-plane-security-groups", why: notModeled("the control-plane groups' spec.additionalSecurityGroups")},
		{name: "control-plane-tenancy", why: notModeled("the control-plane groups' spec.tenancy")},
		{name: "control-plane-volume-size", why: notModeled("the control-plane groups' spec.rootVolumeSize")},
		{name: "control-plane-volume-type", why: notModeled("the control-plane groups' spec.rootVolumeType")},
		{name: "disable-subnet-tags", kind: isSwitch, why: notModeled("spec.tagSubnets")},
		{name: "discovery-store", why: notModeled("spec.serviceAccountIssuerDiscovery")},
		{name: "dns", why: notModeled("spec.networking.topology.dns")},
		{name: "dns-zone", why: notModeled("spec.dnsZone")},
		{name: "encrypt-etcd-storage", kind: isSwitch, why: etcd},
		{name: "etcd-clusters", why: etcd},
		{name: "etcd-storage-type", why: etcd},
		{name: "gce-service-account", why: notModeled("spec.cloudConfig.gceServiceAccounts")},
		{name: "instance-manager", why: notModeled("the groups' spec.manager (Karpenter)")},
		{name: "ipv6", kind: isSwitch, why: "it lays out IPv6 subnets, which this build's create cluster does not; write an IPv6 cluster (spec.nonMasqueradeCIDR ::/0) with 'kops create -f'"},
		{name: "kubernetes-feature-gates", why: notModeled("the components' featureGates")},
		{name: "network-id", why: notModeled("spec.networkID")},
		{name: "networking", why: "it installs no CNI; name the one you run with --set spec.networking.NAME= (it decides how pod metadata access is confined: docs/metadata-access.md)"},
		{name: "node-security-groups", why: notModeled("the node groups' spec.additionalSecurityGroups")},
		{name: "node-tenancy", why: notModeled("the node groups' spec.tenancy")},
		{name: "node-volume-size", why: notModeled("the node groups' spec.rootVolumeSize")},
		{name: "node-volume-type", why: notModeled("the node groups' spec.rootVolumeType")},
		{name: "os-dns-servers", why: openstack},
		{name: "os-ext-net", why: openstack},
		{name: "os-ext-subnet", why: openstack},
		{name: "os-kubelet-ignore-az", kind: isSwitch, why: openstack},
		{name: "os-lb-floating-subnet", why: openstack},
		{name: "os-network", why: openstack},
		{name: "os-octavia", kind: isSwitch, why: openstack},
		{name: "os-octavia-provider", why: openstack},
		{name: "project", why: notModeled("spec.project (GCE)")},
		{name: "ssh-access", why: notModeled("spec.sshAccess")},
		{name: "ssh-public-key", why: "it stores SSH public keys from SSHCredential documents: add one with 'kops create -f'"},
		{name: "subnets", why: "it uses shared subnets of an existing network (--network-id), which this build does not model"},
		{name: "topology", shorthand: "t", why: "it makes public subnets only; a private topology needs NAT and utility subnets, which it does not model"},
		{name: "utility-subnets", why: "it uses shared subnets of an existing network (--network-id), which this build does not model"},
	}
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
	if o.Set.given() {
		if cluster, err = f.setNewCluster(cluster, o.Set); err != nil {
			return err
		}
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
		_, err := fmt.Fprintf(f.Out, "Cluster configuration has been created in %s.\n\n", clientset.Base())
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Cluster configuration has been created in %s.\n\nSuggestions:\n", clientset.Base())
	fmt.Fprintf(&b, " * list clusters with: kops get clusters\n")
	fmt.Fprintf(&b, " * edit this cluster with: kops edit cluster %s\n", name)
	if g := firstOfRole(groups, false); g != "" {
		fmt.Fprintf(&b, " * edit your node instance group: kops edit ig --name=%s %s\n", name, g)
	}
	if g := firstOfRole(groups, true); g != "" {
		fmt.Fprintf(&b, " * edit your control-plane instance group: kops edit ig --name=%s %s\n", name, g)
	}
	fmt.Fprintf(&b, "\nFinally configure the cluster with: kops update cluster --name %s --yes\n", name)
	_, err = io.WriteString(f.Out, b.String())
	return err
}

// firstOfRole names the first control-plane group, or the first group of nodes.
func firstOfRole(groups []*kops.InstanceGroup, controlPlane bool) string {
	for _, g := range groups {
		if g.IsControlPlane() == controlPlane && (controlPlane || g.Spec.Role == kops.RoleNode) {
			return g.Name
		}
	}
	return ""
}

// setNewCluster applies --unset and --set to a cluster made from flags, as `kops edit cluster`
// applies them to a stored one: the result is decoded as a file is, then checked with the rest.
func (f *Factory) setNewCluster(c *kops.Cluster, s setFlags) (*kops.Cluster, error) {
	data, err := kopscodecs.EncodeCluster(c)
	if err != nil {
		return nil, err
	}
	edited, err := commands.SetFields(data, reflect.TypeOf(kops.Cluster{}), s.sets, s.unsets)
	if err != nil {
		return nil, err
	}
	o, err := f.decodeEdited("--set/--unset", edited, kops.KindCluster, c.Name)
	if err != nil {
		return nil, kopscodecs.WithoutLines(err)
	}
	return o.Cluster, nil
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
