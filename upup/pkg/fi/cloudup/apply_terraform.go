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

package cloudup

import (
	"context"
	"fmt"
	"io"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
	"k8s.io/kops/util/pkg/vfs"
)

// applyTerraform renders cloud tasks to out and the rest to the state store. Everything is rendered
// and previewed first, so a failure leaves both untouched; with Yes, out is written before the store.
func applyTerraform(ctx context.Context, o ApplyClusterOptions, cluster *kops.Cluster, graph *fi.Graph, fiContext *fi.Context, out vfs.Path, result *ApplyResult) error {
	region, err := terraformRegion(cluster)
	if err != nil {
		return err
	}
	preview := &fi.DryRunTarget{}
	tf := terraform.NewTarget(terraform.Options{ClusterName: o.ClusterName, Region: region, StateStore: preview})
	if _, err := fi.Run(ctx, graph, fiContext, tf, fi.RunOptions{}); err != nil {
		return err
	}
	files, err := tf.Files()
	if err != nil {
		return err
	}
	outGraph, err := fi.BuildGraph(terraform.OutputTasks(files))
	if err != nil {
		return err
	}
	outContext := &fi.Context{ClusterName: o.ClusterName, ConfigBase: out}

	storeChanges := len(preview.Changes()) > 0
	if _, err := fi.Run(ctx, outGraph, outContext, preview, fi.RunOptions{}); err != nil {
		return err
	}
	var report reporter = preview
	if o.Yes {
		direct := &fi.DirectTarget{}
		if _, err := fi.Run(ctx, outGraph, outContext, direct, fi.RunOptions{}); err != nil {
			return err
		}
		// storeTarget keeps the cloud tasks, now in kubernetes.tf, from the direct target.
		if storeChanges {
			if _, err := fi.Run(ctx, graph, fiContext, &storeTarget{inner: direct}, fi.RunOptions{}); err != nil {
				return err
			}
		}
		report = direct
	}
	result.Changed = len(report.Changes()) > 0
	if o.Out == nil {
		return nil
	}
	if !o.Yes {
		return preview.WriteReportWith(o.Out, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "With --yes, kubernetes.tf and data/ are written to %s and the addon files to the state store (%s/addons).\n\n",
				result.OutDir, result.ConfigBase)
			return err
		})
	}
	return report.WriteReport(o.Out)
}

// terraformRegion: only AWS resources are rendered, so other clouds are refused before any write.
func terraformRegion(cluster *kops.Cluster) (string, error) {
	if cloud := cluster.Spec.CloudProvider; cloud != "aws" {
		return "", fmt.Errorf("--target %s renders AWS resources only; spec.cloudProvider is %q: use --target %s", TargetTerraform, cloud, TargetDirect)
	}
	var zones []string
	for _, s := range cluster.Spec.Subnets {
		if s.Zone != "" {
			zones = append(zones, s.Zone)
		}
	}
	region, err := checkRegion("aws", zones)
	if err != nil {
		return "", fmt.Errorf("spec.subnets: %w", err)
	}
	if region == "" {
		return "", fmt.Errorf("spec.subnets: no zone, so no AWS region for the terraform provider")
	}
	return region, nil
}
