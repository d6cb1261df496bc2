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

const (
	TargetDryRun    = "dryrun"
	TargetDirect    = "direct"
	TargetTerraform = "terraform"
)

type ApplyClusterOptions struct {
	Clientset   *client.Clientset
	ClusterName string
	Flags       featureflag.Set
	Target      string
	// OutDir is required with TargetTerraform and refused otherwise.
	OutDir string
	// Yes makes TargetTerraform write; without it everything is only shown.
	Yes bool
	Out io.Writer
	// Nodeup is nil when not given; control-plane templates then carry no bootstrap of ours.
	Nodeup model.NodeupSource
}

type ApplyResult struct {
	// Changed says whether anything differs from the store (and, with TargetTerraform, from OutDir).
	Changed    bool
	ConfigBase string
	OutDir     string
	// CloudTasks are left alone by TargetDryRun and TargetDirect: kops calls no cloud API, they are
	// applied with TargetTerraform and terraform.
	CloudTasks []fi.TaskKey
	Warnings   []kopscodecs.Warning
}

type reporter interface {
	fi.Target
	Changes() []fi.TaskChange
	WriteReport(io.Writer) error
}

const cloudHeading = "Cloud resources (not applied by --yes; write them with --target terraform --out DIR, then run terraform)"
