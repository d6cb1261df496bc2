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

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/kubemanifest"
)

// legacyOperatorPackage is package 0.2.0 as kops shipped it when packages carried the Namespace,
// the CRD and the ServiceAccount: what sites' own channels may still hold.
func legacyOperatorPackage(t *testing.T) *channels.Package {
	data, err := os.ReadFile("testdata/operator-package-0.2.0-with-crd.yaml")
	require.NoError(t, err)
	return &channels.Package{Channel: "file:///site/stable", Name: coredns.Names().AddonName, Version: "0.2.0", Manifest: data}
}

// A package holding exact copies of kops's Namespace, CRD and ServiceAccount, as packages written
// for earlier releases do, gives the same addon as one holding only the Deployment: kops renders
// those three itself, and the CRD it generates is the one it used to ship.
func TestOperatorPackageLegacyCopiesAccepted(t *testing.T) {
	slim, err := operatorPackageManifest(corednsmodel.Descriptor(), realOperatorPackage(t, ""), remapper(t), testPolicy(t), []string{testClusterFacts})
	require.NoError(t, err)
	legacy, err := operatorPackageManifest(corednsmodel.Descriptor(), legacyOperatorPackage(t), remapper(t), testPolicy(t), []string{testClusterFacts})
	require.NoError(t, err)
	assert.Equal(t, string(slim), string(legacy))

	objs, err := kubemanifest.DecodeStrict(slim)
	require.NoError(t, err)
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.Key())
	}
	assert.Equal(t, []string{
		"Namespace/coredns-operator-system", "CustomResourceDefinition/corednses.addons.x-k8s.io",
		"ServiceAccount/coredns-operator-system/coredns-operator",
	}, keys[:3], "kops's own objects first, in the order they must be applied")
}

// The tampered package a tester wrote into a site channel: a CRD with a second served version that
// preserves unknown fields, categories [all] and short name po, and a ServiceAccount carrying an
// IAM role. All of it used to be rendered into the bootstrap channel; now each copy that differs
// from kops's object is refused, naming the channel, the package, the object and each difference.
func TestOperatorPackageRefusesChangedCopies(t *testing.T) {
	const crd = "object apiextensions.k8s.io/v1 CustomResourceDefinition corednses.addons.x-k8s.io: differs from the CustomResourceDefinition kops renders (kops renders it itself: remove it from the package, or make it exactly kops's): "
	const sa = "object v1 ServiceAccount coredns-operator-system/coredns-operator: differs from the ServiceAccount kops renders"
	const ns = "object v1 Namespace coredns-operator-system: differs from the Namespace kops renders"
	secondVersion := "  - name: v1alpha2\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n"
	endOfCRD := "---\napiVersion: v1\nkind: ServiceAccount\n"
	type edit struct{ old, new string }
	cases := []struct {
		name  string
		edits []edit
		want  []string
	}{
		{"the tester's CRD and ServiceAccount", []edit{
			{"    singular: coredns\n", "    singular: coredns\n    categories: [all]\n    shortNames: [po]\n"},
			{endOfCRD, secondVersion + endOfCRD},
			{"  namespace: coredns-operator-system\n  labels:\n    app.kubernetes.io/name: coredns-operator\n    app.kubernetes.io/managed-by: kops\n# Only",
				"  namespace: coredns-operator-system\n  annotations:\n    eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/admin\n  labels:\n    app.kubernetes.io/name: coredns-operator\n    app.kubernetes.io/managed-by: kops\n# Only"},
		}, []string{
			crd + `spec.names.categories[0]: "all" is not in kops's; spec.names.shortNames[0]: "po" is not in kops's; ` +
				`spec.versions[1].name: "v1alpha2" is not in kops's; spec.versions[1].schema.openAPIV3Schema.type: "object" is not in kops's; ` +
				`spec.versions[1].schema.openAPIV3Schema.x-kubernetes-preserve-unknown-fields: true is not in kops's; ` +
				`spec.versions[1].served: true is not in kops's; spec.versions[1].storage: false is not in kops's`,
			sa + ` (kops renders it itself: remove it from the package, or make it exactly kops's): metadata.annotations[eks.amazonaws.com/role-arn]: "arn:aws:iam::123456789012:role/admin" is not in kops's`,
		}},
		{"unknown fields preserved", []edit{{"  scope: Namespaced\n", "  scope: Namespaced\n  preserveUnknownFields: true\n"}},
			[]string{crd + "spec.preserveUnknownFields: true is not in kops's"}},
		{"conversion webhook", []edit{{"  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n"}},
			[]string{crd + `spec.conversion.strategy: "Webhook" is not in kops's`}},
		{"another group", []edit{{"  group: addons.x-k8s.io\n", "  group: rbac.authorization.k8s.io\n"}},
			[]string{crd + `spec.group: "rbac.authorization.k8s.io", kops's is "addons.x-k8s.io"`}},
		{"a validation dropped", []edit{{"                maxLength: 512\n", ""}},
			[]string{crd + "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.maxLength: missing (kops's is 512)"}},
		{"the status subresource dropped", []edit{{"    subresources:\n      status: {}\n", ""}},
			[]string{crd + `spec.versions[0].subresources: missing (kops's is {"status":{}})`}},
		{"a CRD label", []edit{{"  name: corednses.addons.x-k8s.io\n  labels:\n", "  name: corednses.addons.x-k8s.io\n  labels:\n    team: dns\n"}},
			[]string{crd + `metadata.labels.team: "dns" is not in kops's`}},
		{"a token for everyone", []edit{{"automountServiceAccountToken: false\n", "automountServiceAccountToken: true\n"}},
			[]string{sa + " (kops renders it itself: remove it from the package, or make it exactly kops's): automountServiceAccountToken: true, kops's is false"}},
		{"token and pull secrets", []edit{{"automountServiceAccountToken: false\n", "automountServiceAccountToken: false\nsecrets: [{name: admin-token}]\nimagePullSecrets: [{name: regcred}]\n"}},
			[]string{`imagePullSecrets[0].name: "regcred" is not in kops's; secrets[0].name: "admin-token" is not in kops's`}},
		{"token setting removed", []edit{{"automountServiceAccountToken: false\n", ""}},
			[]string{sa, "automountServiceAccountToken: missing (kops's is false)"}},
		{"privileged namespace", []edit{{"    pod-security.kubernetes.io/enforce: restricted\n", "    pod-security.kubernetes.io/enforce: privileged\n"}},
			[]string{ns, `metadata.labels[pod-security.kubernetes.io/enforce]: "privileged", kops's is "restricted"`}},
		{"namespace without Pod Security", []edit{{"    pod-security.kubernetes.io/enforce: restricted\n", ""}},
			[]string{ns, `metadata.labels[pod-security.kubernetes.io/enforce]: missing (kops's is "restricted")`}},
		{"namespace label", []edit{{"    pod-security.kubernetes.io/enforce: restricted\n", "    pod-security.kubernetes.io/enforce: restricted\n    pod-security.kubernetes.io/enforce-version: v1.0\n"}},
			[]string{ns, `metadata.labels[pod-security.kubernetes.io/enforce-version]: "v1.0" is not in kops's`}},
		{"namespace annotation", []edit{{"  name: coredns-operator-system\n  labels:\n", "  name: coredns-operator-system\n  annotations:\n    scheduler.alpha.kubernetes.io/defaultTolerations: '[{\"operator\": \"Exists\"}]'\n  labels:\n"}},
			[]string{ns, `metadata.annotations[scheduler.alpha.kubernetes.io/defaultTolerations]: "[{\"operator\": \"Exists\"}]" is not in kops's`}},
		{"kops's handover label", []edit{{"    pod-security.kubernetes.io/enforce: restricted\n", "    pod-security.kubernetes.io/enforce: restricted\n    addon.kops.k8s.io/handover-to: x\n"}},
			[]string{ns, `metadata.labels[addon.kops.k8s.io/handover-to]: "x" is not in kops's`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := legacyOperatorPackage(t)
			m := string(p.Manifest)
			for _, e := range tc.edits {
				require.Equal(t, 1, strings.Count(m, e.old), "the edit must change exactly one place of the package: %q", e.old)
				m = strings.Replace(m, e.old, e.new, 1)
			}
			p.Manifest = []byte(m)
			_, err := operatorPackageManifest(corednsmodel.Descriptor(), p, remapper(t), testPolicy(t), []string{testClusterFacts})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `channel "file:///site/stable", package operator.coredns.addons.x-k8s.io version 0.2.0 is refused:`)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
