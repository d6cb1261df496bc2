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
		Long:              longHelp("version"),
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
