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
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
)

// Shell completion (`kops completion bash|zsh|fish|powershell`, cobra's) completes the names of
// the clusters in the state store and of a cluster's instance groups, read when the user presses
// tab. A store that cannot be read completes nothing rather than failing the shell.

// completeClusterNames completes a [CLUSTER] argument, or the --name flag (flag true): nothing
// once the cluster is named.
func completeClusterNames(f *Factory, flag bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if !flag && (len(args) > 0 || f.ClusterName != "") {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		clientset, err := f.Clientset()
		if err != nil {
			return completionError(err)
		}
		names, err := clientset.ListClusters()
		if err != nil {
			return completionError(err)
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeInstanceGroups completes the one INSTANCE_GROUP argument of a cluster given by --name,
// leaving out the groups for which skip says so (delete leaves the control plane out, as kops
// does); without --name it suggests the flag.
func completeInstanceGroups(f *Factory, skip func(*kops.InstanceGroup) bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		if f.ClusterName == "" {
			return []string{"--name"}, cobra.ShellCompDirectiveNoFileComp
		}
		clientset, err := f.Clientset()
		if err != nil {
			return completionError(err)
		}
		groups, _, err := clientset.ListInstanceGroups(f.ClusterName)
		if err != nil {
			return completionError(err)
		}
		var names []string
		for _, g := range groups {
			if skip == nil || !skip(g) {
				names = append(names, g.Name)
			}
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completionError tells the shell nothing can be completed; cobra shows the reason only with
// BASH_COMP_DEBUG_FILE set, so completion never prints into the user's command line.
func completionError(err error) ([]string, cobra.ShellCompDirective) {
	cobra.CompDebugln("kops: "+err.Error(), true)
	return nil, cobra.ShellCompDirectiveError
}

func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}
