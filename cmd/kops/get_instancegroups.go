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
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

func newCmdGetInstanceGroups(f *Factory, output *string) *cobra.Command {
	return &cobra.Command{
		Use:     "instancegroups [NAME...]",
		Aliases: []string{"instancegroup", "ig", "igs"},
		Short:   "List the instance groups of a cluster (--name)",
		Long:    longHelp("get_instancegroups"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			names, directive := completeInstanceGroups(f, nil)(cmd, nil, toComplete)
			return without(names, args), directive
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(*output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			cluster, err := f.Cluster(nil)
			if err != nil {
				return err
			}
			return printInstanceGroups(f, cluster, args, *output)
		},
	}
}

// printInstanceGroups prints the named groups of a cluster, or all of them when names is empty.
func printInstanceGroups(f *Factory, cluster string, names []string, output string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	if _, _, err := clientset.GetCluster(cluster); err != nil {
		return err
	}
	all, warnings, err := clientset.ListInstanceGroups(cluster)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	groups := all
	if len(names) > 0 {
		groups = nil
		for _, name := range names {
			g := findGroup(all, name)
			if g == nil {
				return fmt.Errorf("no instance group %q in cluster %q", name, cluster)
			}
			groups = append(groups, g)
		}
	}
	var docs [][]byte
	for _, g := range groups {
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	if output == outputTable {
		return printTable(f.Out, groupHeaders, groupRows(groups))
	}
	return printDocuments(f.Out, output, docs)
}

// groupHeaders are the columns of an instance group table.
var groupHeaders = []string{"NAME", "ROLE", "MACHINETYPE", "MIN", "MAX", "SUBNETS"}

func groupRows(groups []*kops.InstanceGroup) [][]string {
	rows := make([][]string, 0, len(groups))
	for _, g := range groups {
		rows = append(rows, []string{g.Name, string(g.Spec.Role), g.Spec.MachineType, size(g.Spec.MinSize), size(g.Spec.MaxSize), strings.Join(g.Spec.Subnets, ",")})
	}
	return rows
}

func findGroup(groups []*kops.InstanceGroup, name string) *kops.InstanceGroup {
	for _, g := range groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

func size(v *int32) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(int(*v))
}
