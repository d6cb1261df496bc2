package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// NewCmdDelete is `kops delete cluster`. This build keeps clusters in the state store only, so
// deleting removes what the store holds; there are no cloud resources to delete.
func NewCmdDelete(f *Factory) *cobra.Command {
	var yes bool
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Delete a cluster from the state store",
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
				if _, _, err := clientset.GetCluster(name); err != nil {
					return err
				}
				fmt.Fprintf(f.Out, "Would delete cluster %q and everything stored for it under %s\n\nMust specify --yes to delete cluster\n", name, clientset.Base().Join(name))
				return nil
			}
			if err := clientset.DeleteCluster(name); err != nil {
				return err
			}
			fmt.Fprintf(f.Out, "Deleted cluster: %q\n", name)
			return nil
		},
	}
	cluster.Flags().BoolVarP(&yes, "yes", "y", false, "Delete without asking")
	cmd := &cobra.Command{Use: "delete", Short: "Delete clusters"}
	cmd.AddCommand(cluster)
	return cmd
}
