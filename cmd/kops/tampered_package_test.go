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
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
)

// tamperedChannel copies channels/stable and its packages to a temporary directory and appends
// extra to the operator package's manifest, as someone who can write the channel's files would.
func tamperedChannel(t *testing.T, extra string) string {
	root := repoRoot(t)
	dir := t.TempDir()
	src := filepath.Join(root, "channels")
	require.NoError(t, filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() || (rel != "stable" && !strings.HasPrefix(rel, "packages"+string(filepath.Separator))) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == filepath.Join("packages", "operator.coredns.addons.x-k8s.io", "0.2.0", "manifest.yaml") {
			data = append(data, extra...)
		}
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755))
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	}))
	return "file://" + filepath.ToSlash(filepath.Join(dir, "stable"))
}

// storeSnapshot is every file of the state store and its content.
func storeSnapshot(t *testing.T, c *cli) map[string]string {
	files := map[string]string{}
	root := c.storePath()
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			files[path] = "symlink to " + target
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	}))
	return files
}

// A tampered operator package (a policy binding of the same name turned to Audit, cluster-admin
// for the operator, a Secret, another Deployment) is refused by kops update cluster, naming the
// channel, the package and each object; nothing is written to the state store.
func TestUpdateClusterRefusesTamperedOperatorPackage(t *testing.T) {
	extra := `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: coredns-operator-scope
spec:
  policyName: coredns-operator-scope
  validationActions: [Audit]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: coredns-operator-admin
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: ServiceAccount, name: coredns-operator, namespace: coredns-operator-system}
---
apiVersion: v1
kind: Secret
metadata:
  name: loot
  namespace: kube-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: miner
  namespace: coredns-operator-system
`
	for _, tc := range []struct {
		name, extra string
		wantCode    int
		want        []string
	}{
		{"untampered copy", "", 0, nil},
		{"tampered", extra, 1, []string{
			"package operator.coredns.addons.x-k8s.io version 0.2.0 is refused:",
			"object admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding coredns-operator-scope is not allowed in an operator package",
			"object rbac.authorization.k8s.io/v1 ClusterRoleBinding coredns-operator-admin is not allowed",
			"object v1 Secret kube-system/loot is not allowed",
			"object apps/v1 Deployment coredns-operator-system/miner is not allowed",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			channel := tamperedChannel(t, tc.extra)
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseAddonOperators"
			c.mustRun("create", "cluster", "tampered.k8s.local", "--zones", "us-east-2a", "--channel", channel)
			before := storeSnapshot(t, c)

			r := c.run("update", "cluster", "tampered.k8s.local", "--yes")
			require.Equal(t, tc.wantCode, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			if tc.wantCode == 0 {
				assert.FileExists(t, c.storePath("tampered.k8s.local", "addons", "operator.coredns.addons.x-k8s.io", "0.2.0.yaml"))
				return
			}
			assert.Contains(t, r.stderr, `channel "`+channel+`", package`)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Equal(t, before, storeSnapshot(t, c), "nothing is written")
		})
	}
}

// tamperedCRD is the CoreDNS CRD kops renders, changed as a tester changed a site channel's copy:
// a second served version that preserves unknown fields, categories [all], short name po, and
// unknown fields preserved at the top.
func tamperedCRD(t *testing.T) string {
	crd, err := corednsmodel.CustomResourceDefinition()
	require.NoError(t, err)
	preserve := true
	crd.Spec.Names.Categories = []string{"all"}
	crd.Spec.Names.ShortNames = []string{"po"}
	crd.Spec.PreserveUnknownFields = true
	crd.Spec.Versions = append(crd.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{
		Name: "v1alpha2", Served: true,
		Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object", XPreserveUnknownFields: &preserve,
		}},
	})
	// As a manifest holds it: without the status and creation time a typed object carries.
	data, err := json.Marshal(crd)
	require.NoError(t, err)
	var obj map[string]interface{}
	require.NoError(t, json.Unmarshal(data, &obj))
	delete(obj, "status")
	delete(obj["metadata"].(map[string]interface{}), "creationTimestamp")
	data, err = yaml.Marshal(obj)
	require.NoError(t, err)
	return string(data)
}

// The operator's Namespace, CRD and ServiceAccount are kops's. A site channel's package may carry
// exact copies (packages written for earlier releases do); a copy that differs in anything (the
// tester's CRD, an IAM role on the ServiceAccount, a Namespace relabelled or annotated) is refused
// by kops update cluster, naming the channel, the package, the object and each difference, and
// nothing is written to the state store.
func TestUpdateClusterRefusesTamperedKopsObjects(t *testing.T) {
	const namespace = `---
apiVersion: v1
kind: Namespace
metadata:
  name: coredns-operator-system
  labels:
    app.kubernetes.io/name: coredns-operator
    app.kubernetes.io/managed-by: kops
    pod-security.kubernetes.io/enforce: restricted
`
	const serviceAccount = `---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: coredns-operator
  namespace: coredns-operator-system
  labels:
    app.kubernetes.io/name: coredns-operator
    app.kubernetes.io/managed-by: kops
automountServiceAccountToken: false
`
	exactCRD, err := corednsmodel.CustomResourceDefinitionManifest()
	require.NoError(t, err)
	tampered := "---\n" + tamperedCRD(t) +
		strings.Replace(serviceAccount, "  labels:\n", "  annotations:\n    eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/admin\n  labels:\n", 1) +
		strings.Replace(namespace, "  labels:\n", "  annotations:\n    scheduler.alpha.kubernetes.io/defaultTolerations: '[{\"operator\": \"Exists\"}]'\n  labels:\n    team: dns\n", 1)
	const crdRefused = "object apiextensions.k8s.io/v1 CustomResourceDefinition corednses.addons.x-k8s.io: differs from the CustomResourceDefinition kops renders (kops renders it itself: remove it from the package, or make it exactly kops's): "
	for _, tc := range []struct {
		name, extra string
		wantCode    int
		want        []string
	}{
		{"exact copies, as packages for earlier releases hold", namespace + "---\n" + string(exactCRD) + serviceAccount, 0, nil},
		{"tampered", tampered, 1, []string{
			"package operator.coredns.addons.x-k8s.io version 0.2.0 is refused:",
			crdRefused + `spec.names.categories[0]: "all" is not in kops's; spec.names.shortNames[0]: "po" is not in kops's; spec.preserveUnknownFields: true is not in kops's; `,
			`spec.versions[1].name: "v1alpha2" is not in kops's`,
			`spec.versions[1].schema.openAPIV3Schema.x-kubernetes-preserve-unknown-fields: true is not in kops's`,
			`object v1 ServiceAccount coredns-operator-system/coredns-operator: differs from the ServiceAccount kops renders (kops renders it itself: remove it from the package, or make it exactly kops's): metadata.annotations[eks.amazonaws.com/role-arn]: "arn:aws:iam::123456789012:role/admin" is not in kops's`,
			`object v1 Namespace coredns-operator-system: differs from the Namespace kops renders`,
			`metadata.annotations[scheduler.alpha.kubernetes.io/defaultTolerations]: "[{\"operator\": \"Exists\"}]" is not in kops's; metadata.labels.team: "dns" is not in kops's`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			channel := tamperedChannel(t, tc.extra)
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseAddonOperators"
			c.mustRun("create", "cluster", "tampered.k8s.local", "--zones", "us-east-2a", "--channel", channel)
			before := storeSnapshot(t, c)

			r := c.run("update", "cluster", "tampered.k8s.local", "--yes")
			require.Equal(t, tc.wantCode, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			if tc.wantCode == 0 {
				addon, err := os.ReadFile(c.storePath("tampered.k8s.local", "addons", "operator.coredns.addons.x-k8s.io", "0.2.0.yaml"))
				require.NoError(t, err)
				assert.Equal(t, 1, strings.Count(string(addon), "kind: CustomResourceDefinition\n"), "kops's CRD, once")
				return
			}
			assert.Contains(t, r.stderr, `channel "`+channel+`", package`)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Equal(t, before, storeSnapshot(t, c), "nothing is written")
		})
	}
}
