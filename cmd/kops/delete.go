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
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
)

// NewCmdDelete is `kops delete cluster`. This build keeps clusters in the state store only, so
// deleting removes what the store holds; there are no cloud resources to delete.
func NewCmdDelete(f *Factory) *cobra.Command {
	var yes, force bool
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Delete a cluster from the state store",
		Long:  longHelp("delete_cluster"),
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			clientset, err := f.Clientset()
			if err != nil {
				return err
			}
			if !yes {
				return previewDelete(f, clientset, name, force)
			}
			err = clientset.DeleteCluster(name, client.DeleteOptions{Unknown: force})
			if errors.Is(err, client.ErrUnknownFiles) {
				return fmt.Errorf("%w\nMove them away, or add --force to delete them too", err)
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f.Out, "Deleted cluster: %q\n", name)
			return err
		},
	}
	cluster.Flags().BoolVarP(&yes, "yes", "y", false, "Delete without asking")
	cluster.Flags().BoolVar(&force, "force", false, "Also delete files in the cluster's folder that kops does not write")
	cluster.ValidArgsFunction = completeClusterNames(f, false)
	const noCloud = "it calls no cloud API: the delete removes the state store's files at once, with no cloud resources to wait for"
	addKopsFlags(cluster, false,
		kopsFlag{name: "unregister", kind: isSwitch, harmless: "true", why: "it always only unregisters: it deletes no cloud resources"},
		kopsFlag{name: "external", kind: isSwitch, why: "it deletes clusters of its state store only, not external ones"},
		kopsFlag{name: "region", why: "it deletes clusters of its state store only, not external ones in a cloud region"},
		kopsFlag{name: "wait", why: noCloud},
		kopsFlag{name: "interval", why: noCloud},
		kopsFlag{name: "count", why: noCloud},
	)
	return parentCommand("delete", "Delete clusters and instance groups", cluster, newCmdDeleteInstanceGroup(f))
}

// newCmdDeleteInstanceGroup is `kops delete instancegroup NAME --name CLUSTER`: the group and the
// node files `kops update cluster` wrote for it leave the store. There are no cloud resources to
// delete: the next 'kops update cluster --target terraform' leaves the group's out of kubernetes.tf.
func newCmdDeleteInstanceGroup(f *Factory) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:     "instancegroup NAME",
		Aliases: []string{"ig", "instancegroups", "igs"},
		Short:   "Delete an instance group of a cluster (--name) and its node files",
		Long:    longHelp("delete_instancegroup"),
		Example: "  kops delete ig nodes-us-east-2b --name k8s.example.com --yes",
		Args:    cobra.ExactArgs(1),
		// The control plane is left out, as kops leaves it out: deleting it is rarely meant.
		ValidArgsFunction: completeInstanceGroups(f, func(g *kops.InstanceGroup) bool { return g.IsControlPlane() }),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(nil)
			if err != nil {
				return err
			}
			if err := client.ValidateInstanceGroupName(args[0]); err != nil {
				return err
			}
			return runDeleteInstanceGroup(f, name, args[0], yes)
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDeleteInstanceGroup(f *Factory, cluster, name string, yes bool) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	groups, warnings, err := clientset.ListInstanceGroups(cluster)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	group := findGroup(groups, name)
	if group == nil {
		return fmt.Errorf("no instance group %q in cluster %q", name, cluster)
	}
	if group.IsControlPlane() && countControlPlane(groups) == 1 {
		return fmt.Errorf("instance group %q is the cluster's only control plane: a cluster needs one; create another first, or delete the cluster", name)
	}
	files, err := clientset.InstanceGroupFiles(cluster, group)
	if err != nil {
		return err
	}
	if !yes {
		var b strings.Builder
		fmt.Fprintf(&b, "Would delete instance group %q of cluster %q:\n", name, cluster)
		for _, p := range files {
			fmt.Fprintf(&b, "  %s\n", p)
		}
		b.WriteString("\nMust specify --yes to delete instancegroup\n")
		_, err := io.WriteString(f.Out, b.String())
		return err
	}
	if err := clientset.DeleteInstanceGroup(cluster, group); err != nil {
		return err
	}
	_, err = fmt.Fprintf(f.Out, "Deleted InstanceGroup: %q\n", name)
	return err
}

func countControlPlane(groups []*kops.InstanceGroup) int {
	n := 0
	for _, g := range groups {
		if g.IsControlPlane() {
			n++
		}
	}
	return n
}

func previewDelete(f *Factory, clientset *client.Clientset, name string, force bool) error {
	files, err := clientset.ListClusterFiles(name)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Would delete cluster %q:\n", name)
	for _, p := range files.Known {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	if len(files.Unknown) > 0 {
		if force {
			b.WriteString("and, with --force, files kops does not write:\n")
		} else {
			b.WriteString("Unknown files found (the delete refuses unless --force is given):\n")
		}
		for _, p := range files.Unknown {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	b.WriteString("\nMust specify --yes to delete cluster\n")
	_, err = f.Out.Write([]byte(b.String()))
	return err
}
