package main

import (
	"github.com/spf13/cobra"
)

// NewCmdRoot builds the command tree. Commands behind a feature flag, and flags of commands behind
// one, exist only when it is on, as in kops.
func NewCmdRoot(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:           "kops",
		Short:         "kops creates and manages Kubernetes clusters",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.PersistentFlags().StringVar(&f.State, "state", f.Env["KOPS_STATE_STORE"], "Location of the state store (env KOPS_STATE_STORE), e.g. file:///srv/kops-state")
	cmd.PersistentFlags().StringVar(&f.ClusterName, "name", f.Env["KOPS_CLUSTER_NAME"], "Name of the cluster (env KOPS_CLUSTER_NAME)")
	cmd.AddCommand(
		NewCmdCreate(f),
		NewCmdGet(f),
		NewCmdEdit(f),
		NewCmdUpdate(f),
		NewCmdDelete(f),
		NewCmdValidate(f),
		NewCmdVersion(f),
	)
	return cmd
}
