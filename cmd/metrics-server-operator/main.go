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

	"k8s.io/kops/cmd/internal/operatormain"
	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/operator/manager"
)

func main() { operatormain.Main(metricsserver.Names().DeploymentName, run) }

// addon is the operator: the descriptor, and the renderer kops renders metrics-server with in
// every mode. The CRD admits only insecure: true, and Render refuses anything else.
func addon() manager.Addon[metricsserver.Spec] {
	return manager.Addon[metricsserver.Spec]{
		Descriptor: metricsserver.Descriptor(),
		Render: func(spec metricsserver.Spec) ([]byte, error) {
			// The CRD admits only insecure: true; the secure mode's serving certificate comes from
			// cert-manager and the operator has no rights for it, so kops keeps that mode built in.
			if !spec.Insecure {
				return nil, fmt.Errorf("rendering metrics-server: the operator runs only the insecure mode (spec.insecure: true); kops keeps the secure mode built in")
			}
			return metricsserver.Render(spec)
		},
	}
}

func run(args []string) error {
	d := metricsserver.Descriptor()
	var cmd manager.Command
	fs := manager.NewFlagSet(d, &cmd)
	if err := cmd.Parse(d, fs, args); err != nil {
		return err
	}
	return operatormain.Run(metricsserver.Names().DeploymentName, cmd, addon())
}
