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

package addons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
)

// The operator Deployment of a package passes an allow-list derived from the descriptor: each
// attack below changes one thing kops's own package does not set, and is refused with its field
// path. Together they are what a deny-list let through. (The Namespace, the CRD and the
// ServiceAccount are kops's: TestOperatorPackageRefusesChangedCopies.)
func TestOperatorPackageAllowList(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"root user", "        runAsUser: 65532\n        runAsGroup", "        runAsUser: 0\n        runAsGroup",
			"spec.template.spec.securityContext.runAsUser: must be a whole number from 1 to"},
		{"root container user", "          runAsUser: 65532\n          readOnly", "          runAsUser: 0\n          readOnly",
			"spec.template.spec.containers[0].securityContext.runAsUser: must be a whole number from 1 to"},
		{"unconfined seccomp", "        seccompProfile:\n          type: RuntimeDefault\n      terminationGrace", "        seccompProfile:\n          type: Unconfined\n      terminationGrace",
			`spec.template.spec.securityContext.seccompProfile.type: "Unconfined" is not allowed, only "RuntimeDefault"`},
		{"unconfined AppArmor", "        runAsNonRoot: true\n        runAsUser: 65532\n        runAsGroup", "        appArmorProfile: {type: Unconfined}\n        runAsNonRoot: true\n        runAsUser: 65532\n        runAsGroup",
			"spec.template.spec.securityContext.appArmorProfile: not allowed"},
		{"unmasked proc", "          readOnlyRootFilesystem: true\n", "          readOnlyRootFilesystem: true\n          procMount: Unmasked\n",
			"spec.template.spec.containers[0].securityContext.procMount: not allowed"},
		{"SELinux", "          readOnlyRootFilesystem: true\n", "          readOnlyRootFilesystem: true\n          seLinuxOptions: {type: spc_t}\n",
			"spec.template.spec.containers[0].securityContext.seLinuxOptions: not allowed"},
		{"sysctls", "        runAsNonRoot: true\n        runAsUser: 65532\n        runAsGroup", "        sysctls: [{name: kernel.shm_rmid_forced, value: '0'}]\n        runAsNonRoot: true\n        runAsUser: 65532\n        runAsGroup",
			"spec.template.spec.securityContext.sysctls: not allowed"},
		{"capability added", "            drop:\n            - ALL\n", "            add: [NET_ADMIN]\n            drop:\n            - ALL\n",
			"spec.template.spec.containers[0].securityContext.capabilities.add: not allowed"},
		{"ALL not dropped", "            drop:\n            - ALL\n", "            drop:\n            - NET_RAW\n",
			`spec.template.spec.containers[0].securityContext.capabilities.drop: must contain "ALL"`},
		{"escalation unset", "          allowPrivilegeEscalation: false\n", "",
			"spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation: required"},
		{"onto control-plane nodes", "        kubernetes.io/os: linux\n", "        kubernetes.io/os: linux\n        node-role.kubernetes.io/control-plane: \"\"\n",
			"spec.template.spec.nodeSelector[node-role.kubernetes.io/control-plane]: not allowed"},
		{"tolerates everything", "      - key: CriticalAddonsOnly\n        operator: Exists\n", "      - operator: Exists\n",
			"spec.template.spec.tolerations[0].key: required"},
		{"another toleration", "      - key: CriticalAddonsOnly\n", "      - key: node-role.kubernetes.io/control-plane\n",
			`spec.template.spec.tolerations[0].key: "node-role.kubernetes.io/control-plane" is not allowed, only "CriticalAddonsOnly"`},
		{"preempts nodes' own pods", "      priorityClassName: system-cluster-critical\n", "      priorityClassName: system-node-critical\n",
			`spec.template.spec.priorityClassName: "system-node-critical" is not allowed, only "system-cluster-critical"`},
		{"runtime class", "      terminationGracePeriodSeconds: 10\n", "      terminationGracePeriodSeconds: 10\n      runtimeClassName: unconfined\n",
			"spec.template.spec.runtimeClassName: not allowed"},
		{"host port", "          containerPort: 8081\n", "          containerPort: 8081\n          hostPort: 53\n",
			"spec.template.spec.containers[0].ports[0].hostPort: not allowed"},
		{"probe at another host", "            path: /healthz\n", "            path: /healthz\n            host: 169.254.169.254\n",
			"spec.template.spec.containers[0].livenessProbe.httpGet.host: not allowed"},
		{"exec probe", "          httpGet:\n            path: /readyz\n", "          exec: {command: [sh]}\n          httpGet:\n            path: /readyz\n",
			"spec.template.spec.containers[0].readinessProbe.exec: not allowed"},
		{"sidecar without securityContext", "      containers:\n", "      containers:\n      - {name: sidecar, image: 'r.example.com/s:v1'}\n",
			"spec.template.spec.containers[0].securityContext: required"},
		{"pod labels that a Service selects", "        k8s-app: coredns-operator\n        app.kubernetes.io/name: coredns-operator\n        app.kubernetes.io/managed-by: kops\n    spec:",
			"        k8s-app: kube-dns\n        app.kubernetes.io/name: coredns-operator\n        app.kubernetes.io/managed-by: kops\n    spec:",
			`spec.template.metadata.labels[k8s-app]: "kube-dns" is not allowed, only "coredns-operator"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := realOperatorPackage(t, "")
			require.Equal(t, 1, strings.Count(string(p.Manifest), tc.old), "the attack must change exactly one place of the real package")
			p.Manifest = []byte(strings.Replace(string(p.Manifest), tc.old, tc.new, 1))
			_, err := operatorPackageManifest(corednsmodel.Descriptor(), p, remapper(t), testPolicy(t), []string{testClusterFacts})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Every problem is reported at once, each with its path.
func TestOperatorPackageAllowListReportsEverything(t *testing.T) {
	p := realOperatorPackage(t, "")
	m := strings.Replace(string(p.Manifest), "      hostNetwork", "", 1)
	m = strings.Replace(m, "      terminationGracePeriodSeconds: 10\n", "      terminationGracePeriodSeconds: 10\n      hostPID: true\n      nodeName: n1\n", 1)
	p.Manifest = []byte(m)
	_, err := operatorPackageManifest(corednsmodel.Descriptor(), p, remapper(t), testPolicy(t), []string{testClusterFacts})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.template.spec.hostPID: not allowed; spec.template.spec.nodeName: not allowed")
}
