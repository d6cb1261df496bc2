package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
)

func newCmdGetClusters(f *Factory, output *string) *cobra.Command {
	var full bool
	cmd := &cobra.Command{
		Use:     "clusters [NAME...]",
		Aliases: []string{"cluster"},
		Short:   "List clusters in the state store",
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
			fmt.Fprintf(f.ErrOut, "Error: cluster %q: %v\n", name, err)
			failed = append(failed, name)
			continue
		}
		if full {
			c = kops.CompleteCluster(c, clientset.Base().String())
		}
		var zones []string
		for _, s := range c.Spec.Subnets {
			zones = append(zones, s.Zone)
		}
		rows = append(rows, []string{c.Name, c.Spec.CloudProvider, strings.Join(zones, ",")})
		if output == outputTable {
			continue // a table needs no document: encoding a thousand was half of get clusters' time
		}
		data, err := kopscodecs.EncodeCluster(c)
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	if output == outputTable {
		err = printTable(f.Out, []string{"NAME", "CLOUD", "ZONES"}, rows)
	} else {
		err = printDocuments(f.Out, output, docs)
	}
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("%d of %d clusters could not be read: %s", len(failed), len(names), strings.Join(failed, ", "))
	}
	return err
}
