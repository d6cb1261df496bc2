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
	"k8s.io/kops/cmd/internal/operatormain"
	"k8s.io/kops/pkg/addons/coredns/controller"
	"k8s.io/kops/pkg/operator/manager"
)

func main() { operatormain.Main("coredns-operator", run) }

func run(args []string) error {
	cmd, err := controller.ParseFlags(args)
	if err != nil {
		return err
	}
	common := manager.Command{Options: cmd.Options.Options, Kubeconfig: cmd.Kubeconfig, ProbeAddress: cmd.ProbeAddress}
	return operatormain.Run("coredns-operator", common, controller.Addon(cmd.Facts))
}
