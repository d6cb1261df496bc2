package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
