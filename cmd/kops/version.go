package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// NewCmdVersion prints the client version; --short prints the version alone, for scripts.
func NewCmdVersion(f *Factory) *cobra.Command {
	var short bool
	cmd := &cobra.Command{
		Use:               "version",
		Short:             "Print the kops version",
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			if short {
				_, err := fmt.Fprintln(f.Out, version)
				return err
			}
			_, err := fmt.Fprintf(f.Out, "Client version: %s (API %s)\n", version, kops.GroupVersion)
			return err
		},
	}
	cmd.Flags().BoolVar(&short, "short", false, "Print only the version, for scripts")
	addKopsFlags(cmd, false, kopsFlag{name: "server", kind: isSwitch,
		why: "it records no kops version in the state store, so there is no last server version to show"})
	return cmd
}
