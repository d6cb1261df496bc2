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

package controller

import (
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/manager"
)

// Command is the operator's command line, parsed.
type Command struct {
	Options
	// Kubeconfig empty means the in-cluster service account.
	Kubeconfig string
	// ProbeAddress serves /healthz and /readyz; empty serves none.
	ProbeAddress string
}

// ParseFlags parses the operator's arguments: every operator's flags and coredns.FactsFlag. It reads
// nothing else (the identity's host-name default is the binary's business).
func ParseFlags(args []string) (Command, error) {
	d := coredns.Descriptor()
	var common manager.Command
	facts := DefaultFacts()
	fs := manager.NewFlagSet(d, &common)
	// An argument rather than a ConfigMap: it needs no read right, and a change rolls the operator out.
	fs.Func(coredns.FactsFlag, "the cluster's spec.kubeDNS facts CoreDNS is rendered with, as JSON (cpuRequest, memoryRequest, memoryLimit, tolerations, affinity, podAnnotations, autoscalerImage); kops sets it, a field left out keeps kops's default", func(v string) error {
		f, err := coredns.ParseFacts(v)
		if err != nil {
			return err
		}
		facts = f
		return nil
	})
	if err := common.Parse(d, fs, args); err != nil {
		return Command{}, err
	}
	return Command{Options: Options{Options: common.Options, Facts: facts}, Kubeconfig: common.Kubeconfig, ProbeAddress: common.ProbeAddress}, nil
}
