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
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
)

func realOperatorPackage(t *testing.T, extra string) *channels.Package {
	data, err := os.ReadFile("../../../channels/packages/operator.coredns.addons.x-k8s.io/0.2.0/manifest.yaml")
	require.NoError(t, err)
	return &channels.Package{Channel: "file:///tampered/stable", Name: coredns.Names().AddonName, Version: "0.2.0", Manifest: []byte(string(data) + extra)}
}

func remapper(t *testing.T) *assets.Remapper {
	r, err := assets.NewRemapper(nil)
	require.NoError(t, err)
	return r
}

// A tampered package may not add rights, admission or anything else: kops generates those. Each
// addition is refused with the channel, the package and the object.
func TestOperatorPackageRefusesTampering(t *testing.T) {
	replaceInDeployment := func(old, new string) string { return "REPLACE:" + old + "\x00" + new }
	cases := []struct {
		name, extra string
		want        []string
	}{
		{"policy binding turned to Audit", "---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: coredns-operator-scope\nspec:\n  policyName: coredns-operator-scope\n  validationActions: [Audit]\n",
			[]string{"object admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding coredns-operator-scope is not allowed in an operator package"}},
		{"cluster-admin", "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: op-admin\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\nsubjects:\n- {kind: ServiceAccount, name: coredns-operator, namespace: coredns-operator-system}\n",
			[]string{"object rbac.authorization.k8s.io/v1 ClusterRoleBinding op-admin is not allowed"}},
		{"role", "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: coredns-operator\n  namespace: kube-system\nrules: []\n",
			[]string{"object rbac.authorization.k8s.io/v1 Role kube-system/coredns-operator is not allowed"}},
		{"secret", "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: coredns-operator-system\n",
			[]string{"object v1 Secret coredns-operator-system/s is not allowed"}},
		{"webhook", "---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: w\n",
			[]string{"object admissionregistration.k8s.io/v1 MutatingWebhookConfiguration w is not allowed"}},
		{"another Deployment", "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: miner\n  namespace: coredns-operator-system\n",
			[]string{"object apps/v1 Deployment coredns-operator-system/miner is not allowed"}},
		{"the operator Deployment twice", "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: coredns-operator\n  namespace: coredns-operator-system\nspec:\n  template:\n    spec:\n      serviceAccountName: coredns-operator\n      containers: [{name: m, image: 'r.example.com/m:v1'}]\n",
			[]string{"object apps/v1 Deployment coredns-operator-system/coredns-operator appears more than once"}},
		{"the operator Deployment in another apiVersion", "---\napiVersion: apps/v1beta2\nkind: Deployment\nmetadata:\n  name: coredns-operator\n  namespace: coredns-operator-system\n",
			[]string{"object apps/v1beta2 Deployment coredns-operator-system/coredns-operator is not allowed"}},
		{"several at once", "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: b\n",
			[]string{"object v1 Secret a/s is not allowed", "object v1 ConfigMap b/c is not allowed"}},
		{"host access", replaceInDeployment("      serviceAccountName: coredns-operator\n", "      serviceAccountName: coredns-operator\n      hostNetwork: true\n      volumes: [{name: h, hostPath: {path: /}}]\n"),
			[]string{"Deployment coredns-operator-system/coredns-operator: spec.template.spec.hostNetwork: not allowed; spec.template.spec.volumes: not allowed"}},
		{"privileged", replaceInDeployment("          allowPrivilegeEscalation: false\n", "          allowPrivilegeEscalation: true\n          privileged: true\n"),
			[]string{"containers[0].securityContext.privileged: not allowed", "containers[0].securityContext.allowPrivilegeEscalation: true is not allowed, only false"}},
		{"kops's handover annotation", replaceInDeployment("  namespace: coredns-operator-system\n  labels:\n    k8s-app: coredns-operator\n", "  namespace: coredns-operator-system\n  annotations:\n    addon.kops.k8s.io/handover-to: coredns.addons.k8s.io\n  labels:\n    k8s-app: coredns-operator\n"),
			[]string{"Deployment coredns-operator-system/coredns-operator: metadata.annotations[addon.kops.k8s.io/handover-to]: not allowed"}},
		{"the cluster's facts set by the package", replaceInDeployment("        - --watch-namespace=kube-system\n", "        - --watch-namespace=kube-system\n        - --cluster-facts={}\n"),
			[]string{"containers[0].args sets --cluster-facts={}: kops sets --cluster-facts from the cluster's spec"}},
		{"secret env", replaceInDeployment("        ports:\n", "        env: [{name: T, valueFrom: {secretKeyRef: {name: s, key: k}}}]\n        envFrom: [{secretRef: {name: s}}]\n        ports:\n"),
			[]string{"containers[0].envFrom: not allowed", "containers[0].env[0].valueFrom: not allowed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := realOperatorPackage(t, "")
			if old, new, ok := strings.Cut(strings.TrimPrefix(tc.extra, "REPLACE:"), "\x00"); ok {
				require.Contains(t, string(p.Manifest), old)
				p.Manifest = []byte(strings.Replace(string(p.Manifest), old, new, 1))
			} else {
				p.Manifest = append(p.Manifest, tc.extra...)
			}
			_, err := operatorPackageManifest(corednsmodel.Descriptor(), p, remapper(t), testPolicy(t), []string{testClusterFacts})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `channel "file:///tampered/stable", package operator.coredns.addons.x-k8s.io version 0.2.0 is refused:`)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// The untampered package passes, and the policy binding carries the probe channels runs.
func TestOperatorPackageProbe(t *testing.T) {
	out, err := operatorPackageManifest(corednsmodel.Descriptor(), realOperatorPackage(t, ""), remapper(t), testPolicy(t), []string{testClusterFacts})
	require.NoError(t, err)
	objs, err := kubemanifest.DecodeStrict(out)
	require.NoError(t, err)
	var probe string
	for _, o := range objs {
		if o.Key() == "ValidatingAdmissionPolicyBinding/"+coredns.Names().PolicyName {
			probe = o.Typed.GetAnnotations()[channelsapi.EnforcementProbeAnnotation]
		}
	}
	p, err := channelsapi.ParseEnforcementProbe(probe)
	require.NoError(t, err)
	assert.Equal(t, corednsmodel.Descriptor().Username(), p.User)
	assert.Equal(t, "ConfigMap", p.Object["kind"])
}

// testPolicy is the admission policy kops generates for a default cluster.
func testPolicy(t *testing.T) []byte {
	t.Helper()
	ctx := operatorContext(t, nil, nil)
	ctx.Packages = map[string]*channels.Package{corednsmodel.CoreDNSPackage: {Name: corednsmodel.CoreDNSPackage, Version: "1.12.4"}}
	in, err := corednsmodel.Operator().Instructions(ctx)
	require.NoError(t, err)
	require.Equal(t, corednsmodel.CoreDNSImageRepository+":v1.12.4", in.Spec.(coredns.Spec).Image)
	policy, err := OperatorBuilder{corednsmodel.Operator()}.policy(in)
	require.NoError(t, err)
	return policy
}

// testClusterFacts is the argument kops passes a default cluster's operator.
const testClusterFacts = `--cluster-facts={"autoscalerImage":"x:v1","cpuRequest":"100m","memoryRequest":"70Mi","memoryLimit":"170Mi"}`
