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
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/edit"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

type createGroupOptions struct {
	role    string
	subnets []string
	edit    bool
	dryRun  bool
	output  string
}

// newCmdCreateInstanceGroup is `kops create instancegroup NAME --name CLUSTER`: a group made from
// kops's defaults, opened in the editor (unless --edit=false) and stored only when the cluster's
// checks accept it, as `kops create -f` would.
func newCmdCreateInstanceGroup(f *Factory) *cobra.Command {
	o := &createGroupOptions{}
	cmd := &cobra.Command{
		Use:     "instancegroup NAME",
		Aliases: []string{"ig"},
		Short:   "Create an instance group of a cluster (--name)",
		Long:    longHelp("create_instancegroup"),
		Example: "  kops create ig nodes-large --name k8s.example.com --role node --subnet us-east-2a,us-east-2b --edit=false\n" +
			"  kops create ig nodes-large --name k8s.example.com --dry-run -o yaml",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			cluster, err := f.Cluster(nil)
			if err != nil {
				return err
			}
			if err := client.ValidateInstanceGroupName(args[0]); err != nil {
				return err
			}
			return runCreateInstanceGroup(f, cluster, args[0], o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.role, "role", "node", "Role of the group's machines: node, control-plane, apiserver or bastion")
	fl.StringSliceVar(&o.subnets, "subnet", nil, "Subnets of the group (default: every subnet of the cluster)")
	fl.BoolVar(&o.edit, "edit", true, "Open the group in your editor before it is stored")
	fl.BoolVar(&o.dryRun, "dry-run", false, "Print the group instead of storing it (needs -o)")
	fl.StringVarP(&o.output, "output", "o", "", "Output format for --dry-run: yaml or json")
	_ = cmd.RegisterFlagCompletionFunc("role", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"node", "control-plane", "apiserver", "bastion"}, cobra.ShellCompDirectiveNoFileComp
	})
	addKopsFlags(cmd, false, kopsFlag{name: "zone", why: "it places a group by --subnet; on GCE, whose subnets are regional, add spec.zones with 'kops edit ig'"})
	return cmd
}

// parseRole reads kops's --role words, in any case.
func parseRole(s string) (kops.InstanceGroupRole, error) {
	switch strings.ToLower(s) {
	case "node":
		return kops.RoleNode, nil
	case "control-plane", "controlplane", "master":
		return kops.RoleControlPlane, nil
	case "apiserver":
		return kops.RoleAPIServer, nil
	case "bastion":
		return kops.RoleBastion, nil
	}
	return "", fmt.Errorf("--role %q: use node, control-plane, apiserver or bastion", s)
}

func runCreateInstanceGroup(f *Factory, clusterName, name string, o *createGroupOptions) error {
	if o.output != "" && !o.dryRun {
		return fmt.Errorf("-o is only used with --dry-run")
	}
	if o.dryRun {
		if err := checkOutput(o.output, outputYAML, outputJSON); err != nil {
			return err
		}
	}
	role, err := parseRole(o.role)
	if err != nil {
		return err
	}
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, warnings, err := clientset.GetCluster(clusterName)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	group, err := cloudup.NewInstanceGroup(cluster, name, role, o.subnets)
	if err != nil {
		return err
	}
	data, err := kopscodecs.EncodeInstanceGroup(group)
	if err != nil {
		return err
	}
	// The new group is checked as a file's would be: its name among the stored groups, then its
	// fields with the cluster's.
	check := func(doc *kopscodecs.Object) error {
		return checkStoredCluster(f, clientset, storedCluster{name: clusterName, groups: []*kopscodecs.Object{doc}}).err()
	}
	save := func(doc *kopscodecs.Object) error {
		if err := clientset.CreateInstanceGroup(clusterName, doc.InstanceGroup); err != nil {
			return err
		}
		_, err := fmt.Fprintf(f.Out, "Created instancegroup/%s\nTo deploy it, run: kops update cluster --name %s --yes\n", name, clusterName)
		return err
	}
	source := "instancegroup-" + name + ".yaml"
	if o.edit && !o.dryRun {
		// The editor opens on kops's defaults; saving them unchanged creates the group as it is.
		edited, err := f.editor().Run(source, data, func(text []byte) error {
			doc, err := f.decodeEdited(source, text, kops.KindInstanceGroup, name)
			if err != nil {
				return err
			}
			return check(doc)
		})
		switch {
		case errors.Is(err, edit.ErrCancelled):
		case err != nil:
			return err
		default:
			data = edited
		}
	}
	if !o.edit || o.dryRun {
		// No file was shown: problems are named by group and field path, not by line.
		source = "kops create instancegroup"
	}
	doc, err := f.decodeEdited(source, data, kops.KindInstanceGroup, name)
	if err != nil {
		return kopscodecs.WithoutLines(err)
	}
	if err := check(doc.WithoutLines()); err != nil {
		return kopscodecs.WithoutLines(err)
	}
	if o.dryRun {
		return printDocuments(f.Out, o.output, [][]byte{data})
	}
	return save(doc)
}
