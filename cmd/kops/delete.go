package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/client"
)

// NewCmdDelete is `kops delete cluster`. This build keeps clusters in the state store only, so
// deleting removes what the store holds; there are no cloud resources to delete.
func NewCmdDelete(f *Factory) *cobra.Command {
	var yes, force bool
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Delete a cluster from the state store",
		Long: "Deletes the files kops writes for the cluster (its config last, so an interrupted delete can be run\n" +
			"again). Other files in the cluster's folder make it refuse and delete nothing, unless --force is given.",
		Args: cobra.MaximumNArgs(1),
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
			fmt.Fprintf(f.Out, "Deleted cluster: %q\n", name)
			return nil
		},
	}
	cluster.Flags().BoolVarP(&yes, "yes", "y", false, "Delete without asking")
	cluster.Flags().BoolVar(&force, "force", false, "Also delete files in the cluster's folder that kops does not write")
	return parentCommand("delete", "Delete clusters", cluster)
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
