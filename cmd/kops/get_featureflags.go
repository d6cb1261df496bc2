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
	"strconv"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

// featureFlagView is how a flag's status is printed as YAML or JSON.
type featureFlagView struct {
	Name        string `json:"name"`
	Default     bool   `json:"default"`
	Enabled     bool   `json:"enabled"`
	Source      string `json:"source"`
	Description string `json:"description"`
}

func newCmdGetFeatureFlags(f *Factory, output *string) *cobra.Command {
	return &cobra.Command{
		Use:     "featureflags",
		Aliases: []string{"featureflag"},
		Short:   "List the known feature flags, their values from KOPS_FEATURE_FLAGS and why",
		Long:    longHelp("get_featureflags"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(*output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			var rows [][]string
			var docs [][]byte
			for _, s := range f.Flags.Describe() {
				rows = append(rows, []string{string(s.Name), strconv.FormatBool(s.Default), strconv.FormatBool(s.Value), s.Source, s.Description})
				data, err := yaml.Marshal(featureFlagView{string(s.Name), s.Default, s.Value, s.Source, s.Description})
				if err != nil {
					return err
				}
				docs = append(docs, data)
			}
			if *output == outputTable {
				return printTable(f.Out, []string{"FLAG", "DEFAULT", "VALUE", "SOURCE", "DESCRIPTION"}, rows)
			}
			return printDocuments(f.Out, *output, docs)
		},
	}
}
