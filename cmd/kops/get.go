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
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
)

// NewCmdGet is `kops get`: its subcommands list one kind each, `get all` a cluster with its
// instance groups and addon objects. As in kops, `kops get CLUSTER` is the deprecated spelling of
// `kops get all CLUSTER`; any other word is an unknown resource type.
func NewCmdGet(f *Factory) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "get",
		Short: "Get clusters, instance groups, feature flags and image assets",
		Long:  longHelp("get"),
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			if len(args) == 1 {
				if err := checkClusterOrType(cmd, f, args[0]); err != nil {
					return err
				}
			}
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			warnf(f.ErrOut, "W: `kops get [CLUSTER]` is deprecated: use `kops get all [CLUSTER]`\n")
			return printAll(f, name, output)
		},
	}
	cmd.PersistentFlags().StringVarP(&output, "output", "o", outputTable, "Output format: table, yaml or json")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{outputTable, outputYAML, outputJSON}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.AddCommand(
		newCmdGetAll(f, &output),
		newCmdGetClusters(f, &output),
		newCmdGetInstanceGroups(f, &output),
		newCmdGetFeatureFlags(f, &output),
		newCmdGetAssets(f, &output),
	)
	return cmd
}

// checkClusterOrType lets a word after `kops get` through only when it names a stored cluster;
// otherwise it is refused as a resource type this build does not have, with the ones it has.
func checkClusterOrType(cmd *cobra.Command, f *Factory, word string) error {
	var types []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() {
			types = append(types, s.Name())
		}
	}
	unknown := fmt.Sprintf("unknown resource type %q: kops get takes %s (see 'kops get --help')", word, strings.Join(types, ", "))
	if client.ValidateClusterName(word) != nil {
		return fmt.Errorf("%s", unknown)
	}
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	exists, err := clientset.ClusterExists(word)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("%s; nor is there a cluster %q in state store %s", unknown, word, clientset.Base())
	}
	return nil
}

func newCmdGetAll(f *Factory, output *string) *cobra.Command {
	return &cobra.Command{
		Use:               "all [CLUSTER]",
		Short:             "Print a cluster, its instance groups and its addon objects",
		Long:              longHelp("get_all"),
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeClusterNames(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(*output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			return printAll(f, name, *output)
		},
	}
}

// printAll prints a cluster, its instance groups and the addon objects stored with it: as tables
// under a title each (as kops does), or as one YAML stream or JSON list.
func printAll(f *Factory, name, output string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, groups, err := f.readCluster(clientset, name)
	if err != nil {
		return err
	}
	addons, err := clientset.GetAddons(name)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		warnf(f.ErrOut, "No instance groups found\n")
	}
	if output == outputTable {
		if _, err := fmt.Fprintln(f.Out, "Cluster"); err != nil {
			return err
		}
		if err := printTable(f.Out, clusterHeaders, [][]string{clusterRow(cluster)}); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(f.Out, "\nInstance Groups"); err != nil {
			return err
		}
		if err := printTable(f.Out, groupHeaders, groupRows(groups)); err != nil {
			return err
		}
		if len(addons) == 0 {
			return nil
		}
		if _, err := fmt.Fprintln(f.Out, "\nAddon Objects"); err != nil {
			return err
		}
		rows := make([][]string, 0, len(addons))
		for _, a := range addons {
			version, _, _ := unstructured.NestedString(a.Object, "spec", "version")
			rows = append(rows, []string{a.GetName(), a.GetKind(), version})
		}
		return printTable(f.Out, []string{"NAME", "KIND", "VERSION"}, rows)
	}
	data, err := kopscodecs.EncodeCluster(cluster)
	if err != nil {
		return err
	}
	docs := [][]byte{data}
	for _, g := range groups {
		data, err := kopscodecs.EncodeInstanceGroup(g)
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	for _, a := range addons {
		data, err := kopscodecs.EncodeAddons([]*unstructured.Unstructured{a})
		if err != nil {
			return err
		}
		docs = append(docs, data)
	}
	return printDocuments(f.Out, output, docs)
}
