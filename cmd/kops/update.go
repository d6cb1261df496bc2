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
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// updateOptions are the flags of `kops update cluster`.
type updateOptions struct {
	yes     bool
	target  string
	out     string
	timeout time.Duration
}

// NewCmdUpdate is `kops update cluster`.
func NewCmdUpdate(f *Factory) *cobra.Command {
	var o updateOptions
	cluster := &cobra.Command{
		Use:               "cluster [CLUSTER]",
		Short:             "Write the cluster's addons to the state store, and its cloud resources as terraform",
		Long:              longHelp("update_cluster"),
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeClusterNames(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			if o.target == "" {
				o.target = cloudup.TargetDryRun
				if o.yes {
					o.target = cloudup.TargetDirect
				}
			}
			if o.timeout <= 0 {
				return errors.New("--timeout must be positive")
			}
			if o.target == cloudup.TargetDirect && !o.yes {
				return fmt.Errorf("--target %s writes to the state store: add --yes", o.target)
			}
			return runUpdateCluster(cmd.Context(), f, name, o)
		},
	}
	cluster.Flags().BoolVarP(&o.yes, "yes", "y", false, "Apply the changes (without it, only show them)")
	cluster.Flags().StringVar(&o.target, "target", "", "Target: dryrun, direct or terraform (default dryrun, direct with --yes)")
	cluster.Flags().StringVar(&o.out, "out", "", "Directory --target terraform writes kubernetes.tf and data/ to")
	cluster.Flags().DurationVar(&o.timeout, "timeout", defaultUpdateTimeout, "Time limit of the whole update, its state-store requests together (each request is bounded on its own too)")
	addKopsFlags(cluster, false, updateClusterKopsFlags()...)
	return parentCommand("update", "Update clusters", cluster)
}

// updateClusterKopsFlags are the flags of kops's `update cluster` this build does not honour.
// Those that make kops write a kubeconfig are noted and the update goes on, so that kops's usual
// `kops update cluster --yes --admin` works; the others are refused.
func updateClusterKopsFlags() []kopsFlag {
	const noKubeconfig = "it keeps no cluster CA or credentials, so it writes no kubeconfig; use the one of the cluster you run the addons on"
	const noContact = "its update does not contact the cluster: it writes the state store (and terraform files) only"
	return []kopsFlag{
		{name: "admin", kind: switchWithDuration, note: true, why: noKubeconfig},
		{name: "create-kube-config", kind: isSwitch, note: true, harmless: "false", why: noKubeconfig},
		{name: "internal", kind: isSwitch, note: true, why: noKubeconfig},
		{name: "user", note: true, why: noKubeconfig},
		{name: "allow-kops-downgrade", kind: isSwitch, why: "it records no kops version in the state store, so there is no downgrade to allow"},
		{name: "api-server", why: noContact},
		{name: "use-kubeconfig", kind: isSwitch, why: noContact},
		{name: "ignore-kubelet-version-skew", kind: isSwitch, why: noContact + ", so it checks no kubelet version skew"},
		{name: "instance-group", why: "it updates the whole cluster at once: its files are one state, not one per group"},
		{name: "instance-group-roles", why: "it updates the whole cluster at once: its files are one state, not one per role"},
		{name: "lifecycle-overrides", why: "it calls no cloud API, so there is no task lifecycle to override"},
		{name: "phase", why: "it calls no cloud API, so there are no cloud phases to run apart"},
		{name: "prune", kind: isSwitch, why: "it always deletes the stale files it wrote, and terraform removes the cloud resources kubernetes.tf no longer lists"},
		{name: "ssh-public-key", why: "it stores SSH public keys from SSHCredential documents: add one with 'kops create -f' (kops deprecates this flag too)"},
	}
}

// defaultUpdateTimeout bounds an update whose store answers slowly but within each request's own
// limit: an update reads and writes some tens of objects, in seconds on a store that answers.
const defaultUpdateTimeout = 10 * time.Minute

func runUpdateCluster(ctx context.Context, f *Factory, name string, o updateOptions) error {
	// Every state-store request of the update, reads and writes, ends by the deadline; a write cut
	// short leaves each object whole (writes are atomic), and the next update finishes the job.
	f.Paths = f.Paths.Until(time.Now().Add(o.timeout))
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	nodeup, err := nodeupFromEnv(f.Env)
	if err != nil {
		return err
	}
	result, err := cloudup.ApplyCluster(ctx, cloudup.ApplyClusterOptions{
		Nodeup:      nodeup,
		Clientset:   clientset,
		ClusterName: name,
		Flags:       f.Flags,
		Target:      o.target,
		OutDir:      o.out,
		Yes:         o.yes,
		Out:         f.Out,
	})
	if result != nil {
		f.Warn(result.Warnings)
	}
	if err != nil {
		return err
	}
	switch o.target {
	case cloudup.TargetDirect:
		if result.Changed {
			if _, err := fmt.Fprintf(f.Out, "Cluster changes have been applied to the state store.\nApply them on the cluster with: %s\n", channelsCommand(result)); err != nil {
				return err
			}
		}
		return printNotApplied(f, name, result)
	case cloudup.TargetTerraform:
		return printTerraformNext(f, result, o.yes)
	}
	return nil
}
