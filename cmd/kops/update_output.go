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
	"io"
	"strings"

	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

func channelsCommand(result *cloudup.ApplyResult) string {
	return "channels apply channel " + result.ConfigBase + "/" + addons.BootstrapChannelLocation + " --yes"
}

// printNotApplied names the cloud resources the direct target left alone, last on stdout where a
// reader of `--yes` looks for the outcome, and once more on stderr so a script's log keeps it.
// It is not an error: the state store part did succeed, and terraform is the way to the rest.
func printNotApplied(f *Factory, name string, result *cloudup.ApplyResult) error {
	n := len(result.CloudTasks)
	if n == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n*** NOT APPLIED: %d cloud resources ***\n", n)
	b.WriteString("kops does not call cloud APIs; these resources are applied only through terraform:\n")
	for _, k := range result.CloudTasks {
		fmt.Fprintf(&b, "  %s\n", k)
	}
	fmt.Fprintf(&b, "Write them with:  kops update cluster %s --target terraform --out DIR --yes\n", name)
	b.WriteString("then apply them:  cd DIR && terraform init && terraform apply\n")
	if _, err := io.WriteString(f.Out, b.String()); err != nil {
		return err
	}
	warnf(f.ErrOut, "W: %d cloud resources were not applied (kops update cluster %s --target terraform --out DIR --yes writes them)\n", n, name)
	return nil
}

// printTerraformNext says where each part went and what to run next (a dry run says where they
// would go in its report, before its last line).
func printTerraformNext(f *Factory, result *cloudup.ApplyResult, yes bool) error {
	if !yes {
		return nil
	}
	if _, err := fmt.Fprintf(f.Out, "Terraform files are in %s: apply the cloud resources with: cd %s && terraform init && terraform apply\n",
		result.OutDir, localDir(result.OutDir)); err != nil {
		return err
	}
	_, err := fmt.Fprintf(f.Out, "Addon files are in the state store (%s/addons), not in %s: apply them on the cluster with: %s\n",
		result.ConfigBase, localDir(result.OutDir), channelsCommand(result))
	return err
}

// localDir shows a file:// path as the plain directory a shell wants.
func localDir(p string) string { return strings.TrimPrefix(p, "file://") }
