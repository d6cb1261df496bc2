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
	"io"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
)

// The targets `kops update cluster` renders to.
const (
	TargetDryRun    = "dryrun"
	TargetDirect    = "direct"
	TargetTerraform = "terraform"
)

// ApplyClusterOptions say which cluster to update, how, and where to report.
type ApplyClusterOptions struct {
	Clientset   *client.Clientset
	ClusterName string
	Flags       featureflag.Set
	// Target is TargetDryRun, TargetDirect or TargetTerraform.
	Target string
	// OutDir is where TargetTerraform writes kubernetes.tf and data/; required with it and
	// refused with the other targets.
	OutDir string
	// Yes makes TargetTerraform write OutDir and the addon files; without it both are only shown.
	Yes bool
	// Out receives the report of what would change or what changed.
	Out io.Writer
	// Nodeup is where machines download nodeup (checked by nodesetup.ValidateNodeupSource); nil
	// when not given, and then control-plane launch templates carry no bootstrap of ours.
	Nodeup model.NodeupSource
}

// ApplyResult is what an update did or would do.
type ApplyResult struct {
	// Changed says whether anything differs from what is stored (and, with TargetTerraform, from
	// what is in OutDir).
	Changed bool
	// ConfigBase is where the cluster's addons are written.
	ConfigBase string
	// OutDir is where TargetTerraform writes, as a path ParsePath accepts.
	OutDir string
	// CloudTasks are the cloud resources TargetDryRun and TargetDirect leave alone, by key: kops
	// calls no cloud API, they are applied with TargetTerraform and terraform.
	CloudTasks []fi.TaskKey
	Warnings   []kopscodecs.Warning
}

// reporter is what both targets offer after a run.
type reporter interface {
	fi.Target
	Changes() []fi.TaskChange
	WriteReport(io.Writer) error
}

// cloudHeading introduces the dry run's list of cloud resources.
const cloudHeading = "Cloud resources (not applied by --yes; write them with --target terraform --out DIR, then run terraform)"
