package main

import (
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/upup/pkg/fi/cloudup"
)

func newCmdGetAssets(f *Factory, output *string) *cobra.Command {
	return &cobra.Command{
		Use:   "assets [CLUSTER]",
		Short: "List the images the cluster's addons run, as named and as pulled after spec.assets remapping",
		Long: "Renders the addons as `kops update cluster` does (nothing is written) and lists every image\n" +
			"their workloads and operator resources name: copy these into the registry named by\n" +
			"spec.assets.containerRegistry.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(*output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			clientset, err := f.Clientset()
			if err != nil {
				return err
			}
			images, warnings, err := cloudup.ListImages(clientset, name, f.Flags)
			f.Warn(warnings)
			if err != nil {
				return err
			}
			if *output == outputTable {
				rows := make([][]string, 0, len(images))
				for _, a := range images {
					rows = append(rows, []string{a.Original, a.Remapped, strings.Join(a.UsedBy, ", ")})
				}
				return printTable(f.Out, []string{"IMAGE", "REMAPPED", "USED BY"}, rows)
			}
			data, err := yaml.Marshal(map[string]interface{}{"images": images})
			if err != nil {
				return err
			}
			return printDocuments(f.Out, *output, [][]byte{data})
		},
	}
}
