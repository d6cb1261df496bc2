package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// NewCmdUpdate is `kops update cluster`.
func NewCmdUpdate(f *Factory) *cobra.Command {
	var yes bool
	var target string
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Write the cluster's addons and bootstrap channel to the state store",
		Long: "Shows what would change (a dry run) unless --yes is given, then writes it.\n" +
			"Apply the result on the cluster with: channels apply channel <configBase>/addons/bootstrap-channel.yaml --yes",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			if target == "" {
				target = cloudup.TargetDryRun
				if yes {
					target = cloudup.TargetDirect
				}
			}
			if target == cloudup.TargetDirect && !yes {
				return fmt.Errorf("--target %s writes to the state store: add --yes", target)
			}
			return runUpdateCluster(cmd.Context(), f, name, target)
		},
	}
	cluster.Flags().BoolVarP(&yes, "yes", "y", false, "Apply the changes (without it, only show them)")
	cluster.Flags().StringVar(&target, "target", "", "Target: dryrun or direct (default dryrun, direct with --yes)")
	return parentCommand("update", "Update clusters", cluster)
}

func runUpdateCluster(ctx context.Context, f *Factory, name, target string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	result, err := cloudup.ApplyCluster(ctx, cloudup.ApplyClusterOptions{
		Clientset:   clientset,
		ClusterName: name,
		Flags:       f.Flags,
		Target:      target,
		Out:         f.Out,
	})
	if result != nil {
		f.Warn(result.Warnings)
	}
	if err != nil {
		return err
	}
	if target == cloudup.TargetDirect && result.Changed {
		fmt.Fprintf(f.Out, "Cluster changes have been applied to the state store.\nApply them on the cluster with: channels apply channel %s --yes\n", result.ConfigBase+"/"+addons.BootstrapChannelLocation)
	}
	return nil
}
