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
