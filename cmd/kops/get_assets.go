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
	"sigs.k8s.io/yaml"

	"k8s.io/kops/upup/pkg/fi/cloudup"
)

func newCmdGetAssets(f *Factory, output *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:               "assets [CLUSTER]",
		Short:             "List the images the cluster's addons run: canonical, and download after spec.assets remapping",
		Long:              longHelp("get_assets"),
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
			clientset, err := f.Clientset()
			if err != nil {
				return err
			}
			images, warnings, err := cloudup.ListImages(clientset, name, f.Flags)
			f.Warn(warnings)
			if err != nil {
				return err
			}
			if *output == outputTable {
				rows := make([][]string, 0, len(images))
				for _, a := range images {
					rows = append(rows, []string{a.Canonical, a.Download, strings.Join(a.UsedBy, ", ")})
				}
				return printTable(f.Out, []string{"CANONICAL", "DOWNLOAD", "USED BY"}, rows)
			}
			// kops's keys: images (canonical, download); this build adds usedBy, and has no file
			// assets (kops's "files": nodeup and its binaries), which kops leaves out when empty.
			data, err := yaml.Marshal(map[string]interface{}{"images": images})
			if err != nil {
				return err
			}
			return printDocuments(f.Out, *output, [][]byte{data})
		},
	}
	addKopsFlags(cmd, false, kopsFlag{name: "copy", kind: isSwitch,
		why: "it has no container registry client to copy images with; copy each CANONICAL image to its DOWNLOAD name with a tool such as crane or skopeo"})
	return cmd
}
