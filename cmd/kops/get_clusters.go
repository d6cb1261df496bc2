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
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

func newCmdGetClusters(f *Factory, output *string) *cobra.Command {
	var full bool
	cmd := &cobra.Command{
		Use:     "clusters [NAME...]",
		Aliases: []string{"cluster"},
		Short:   "List clusters in the state store",
		Long:    longHelp("get_clusters"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			names, directive := completeClusterNames(f, true)(cmd, args, toComplete)
			return without(names, args), directive
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(*output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			if len(args) == 0 && f.ClusterName != "" {
				args = []string{f.ClusterName}
			}
			return printClusters(f, args, *output, full)
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "Show the spec with every default filled in (podMetadataAccess, kubeDNS, ...), as update cluster uses it")
	return cmd
}

// printClusters prints the named clusters, or every cluster when names is empty, completed with
// their defaults when full. A cluster that cannot be read is reported on stderr and the others are
// still printed; the command then fails.
func printClusters(f *Factory, names []string, output string, full bool) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	var reads []client.ClusterRead
	if len(names) == 0 {
		if names, reads, err = clientset.GetAllClusters(); err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("no clusters found in state store %s", clientset.Base())
		}
	} else {
		reads = clientset.GetClusters(names)
	}
	var rows [][]string
	var docs [][]byte
	var failed []string
	for i, read := range reads {
		name, c, err := names[i], read.Cluster, read.Err
		f.Warn(read.Warnings)
		if err != nil {
			if len(names) == 1 {
				return err
			}
			warnf(f.ErrOut, "Error: cluster %q: %v\n", name, err)
			failed = append(failed, name)
			continue
		}
		var comment string
		if full {
			c = kops.CompleteCluster(c, clientset.Base().String())
			if comment, err = podMetadataComment(clientset, c); err != nil {
				return err
			}
		}
		rows = append(rows, clusterRow(c))
		if output == outputTable {
			continue // a table needs no document: encoding a thousand was half of get clusters' time
		}
		data, err := kopscodecs.EncodeCluster(c)
		if err != nil {
			return err
		}
		docs = append(docs, append([]byte(comment), data...))
	}
	if output == outputTable {
		err = printTable(f.Out, clusterHeaders, rows)
	} else {
		err = printDocuments(f.Out, output, docs)
	}
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("%d of %d clusters could not be read: %s", len(failed), len(names), strings.Join(failed, ", "))
	}
	return err
}

// podMetadataComment says, as YAML comments above the completed spec, which pod metadata mode each
// instance group's machines end up with and why (a group may keep access where the cluster writes
// no mode). JSON output drops comments.
func podMetadataComment(clientset *client.Clientset, completed *kops.Cluster) (string, error) {
	groups, _, err := clientset.ListInstanceGroups(completed.Name)
	if err != nil {
		return "", err
	}
	lines := cloudup.PodMetadataByGroup(completed, groups)
	if len(lines) == 0 {
		return "", nil
	}
	return "# Pod metadata access by instance group:\n#   " + strings.Join(lines, "\n#   ") + "\n", nil
}

// clusterHeaders are the columns of a cluster table, as kops prints them.
var clusterHeaders = []string{"NAME", "CLOUD", "ZONES"}

func clusterRow(c *kops.Cluster) []string {
	var zones []string
	for _, s := range c.Spec.Subnets {
		zones = append(zones, s.Zone)
	}
	return []string{c.Name, c.Spec.CloudProvider, strings.Join(zones, ",")}
}

// without leaves out of names those already given.
func without(names, given []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(given, n) {
			out = append(out, n)
		}
	}
	return out
}
