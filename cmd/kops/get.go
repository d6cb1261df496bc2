package main

import (
	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/kopscodecs"
)

// NewCmdGet is `kops get`: alone it prints a cluster and its instance groups; its subcommands list
// one kind.
func NewCmdGet(f *Factory) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "get",
		Short: "Print clusters, instance groups, feature flags and image assets",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			if output == outputTable {
				if err := printClusters(f, []string{name}, output, false); err != nil {
					return err
				}
				_, _ = f.Out.Write([]byte("\n"))
				return printInstanceGroups(f, name, nil, output)
			}
			return printClusterAndGroups(f, name, output)
		},
	}
	cmd.PersistentFlags().StringVarP(&output, "output", "o", outputTable, "Output format: table, yaml or json")
	cmd.AddCommand(
		newCmdGetClusters(f, &output),
		newCmdGetInstanceGroups(f, &output),
		newCmdGetFeatureFlags(f, &output),
		newCmdGetAssets(f, &output),
	)
	return cmd
}

func printClusterAndGroups(f *Factory, name, output string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, groups, err := f.readCluster(clientset, name)
	if err != nil {
		return err
	}
	data, err := kopscodecs.EncodeCluster(cluster)
	if err != nil {
		return err
	}
	docs := [][]byte{data}
	for _, g := range groups {
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	return printDocuments(f.Out, output, docs)
}
