package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// NewCmdVersion prints the client version.
func NewCmdVersion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the kops version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(f.Out, "Client version: %s (API %s)\n", version, kops.GroupVersion)
			return err
		},
	}
}
