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
	"flag"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
)

// NewCmdRoot builds the command tree. Commands behind a feature flag, and flags of commands behind
// one, exist only when it is on, as in kops.
func NewCmdRoot(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:           "kops",
		Short:         "kops creates and manages Kubernetes clusters",
		Long:          longHelp("kops"),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.PersistentFlags().StringVar(&f.State, "state", f.Env["KOPS_STATE_STORE"], "Location of the state store (env KOPS_STATE_STORE), e.g. file:///srv/kops-state")
	cmd.PersistentFlags().StringVar(&f.ClusterName, "name", f.Env["KOPS_CLUSTER_NAME"], "Name of the cluster (env KOPS_CLUSTER_NAME)")
	_ = cmd.RegisterFlagCompletionFunc("name", completeClusterNames(f, true))
	addLogFlags(cmd)
	const olderKlog = "this build's klog has no such setting: its logs go to stderr, their level set with -v"
	addKopsFlags(cmd, true,
		kopsFlag{name: "config", kind: withValue,
			why: "it reads no config file ($HOME/.kops.yaml); give --state and --name, or set KOPS_STATE_STORE and KOPS_CLUSTER_NAME"},
		kopsFlag{name: "alsologtostderrthreshold", why: olderKlog},
		kopsFlag{name: "legacy_stderr_threshold_behavior", kind: isSwitch, why: olderKlog})
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

// parentCommand groups subcommands. Given no subcommand, or one it does not know, it fails and
// names the valid ones (cobra alone would print the help and exit 0, which scripts read as
// success).
func parentCommand(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var names []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					names = append(names, s.Name())
				}
			}
			valid := strings.Join(names, ", ")
			if len(args) == 0 {
				return fmt.Errorf("%q needs a subcommand: %s (see '%s --help')", cmd.CommandPath(), valid, cmd.CommandPath())
			}
			return fmt.Errorf("unknown command %q for %q: valid commands are %s (see '%s --help')", args[0], cmd.CommandPath(), valid, cmd.CommandPath())
		},
	}
	cmd.AddCommand(subs...)
	return cmd
}

// addLogFlags adds klog's flags as kops has them: -v (the log level: 6 logs every request to the
// API server) is shown, the others are hidden but work. Each command line starts at level 0: klog's
// level is the process's, and tests run many command lines in one process.
func addLogFlags(cmd *cobra.Command) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("v", "0")
	fs.VisitAll(func(f *flag.Flag) {
		cmd.PersistentFlags().AddGoFlag(f)
		if f.Name != "v" {
			cmd.PersistentFlags().Lookup(f.Name).Hidden = true
		}
	})
}
