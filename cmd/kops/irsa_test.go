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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A spec with IRSA that this build cannot render is refused before anything is written, naming the
// field: by update (every target) and with the state store as create left it.
func TestUpdateClusterRefusesBadIRSASpec(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "..", "tests", "kops-specs", "aws-irsa.yaml"))
	require.NoError(t, err)
	tests := []struct{ from, to, want string }{
		{"- arn:aws:iam::123456789012:policy/media-bucket-write", "- media-bucket-write",
			"spec.iam.serviceAccountExternalPermissions[0].aws.policyARNs[0]: media-bucket-write is not a managed policy's ARN"},
		{`"Effect": "Allow",`, `"Effect": "Allow", "NotResource": "*",`,
			"spec.iam.serviceAccountExternalPermissions[1].aws.inlinePolicy[0].NotResource: is not supported"},
		{"    serviceAccountIssuer: https://irsa-discovery.s3.us-east-2.amazonaws.com/irsa.example.com\n", "",
			`spec.serviceAccountIssuerDiscovery.discoveryStore: "s3://irsa-discovery/irsa.example.com" is in S3`},
		{"permissionsBoundary: arn:aws:iam::123456789012:policy/cluster-boundary", "permissionsBoundary: cluster-boundary",
			`spec.iam.permissionsBoundary: "cluster-boundary" is not a managed policy's ARN`},
		{"    node:\n", "    nodes:\n", `spec.externalPolicies.nodes: "nodes" is not a role kops knows`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			require.Contains(t, string(spec), tc.from)
			path := filepath.Join(t.TempDir(), "cluster.yaml")
			require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(spec), tc.from, tc.to, 1)), 0o644))
			c := newCLI(t)
			c.mustRun("create", "-f", path)
			before := c.storeFiles()
			out := t.TempDir()
			for _, args := range [][]string{{"--yes"}, {"--target", "terraform", "--out", out, "--yes"}, nil} {
				r := c.run(append([]string{"update", "cluster", "irsa.example.com"}, args...)...)
				assert.Equal(t, 1, r.code, args)
				assert.Contains(t, r.stderr, tc.want, args)
			}
			assert.Equal(t, before, c.storeFiles(), "the state store is as create left it")
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			assert.Empty(t, entries, "no terraform is written")
		})
	}
}

// kube2iam's default role being a service account's role contradicts itself (kube2iam could never
// assume it): create refuses it naming the field, with exit 1, and writes nothing to the store.
func TestCreateRefusesServiceAccountRoleAsKube2IAMDefault(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "..", "tests", "kops-specs", "aws-irsa-kube2iam-migration.yaml"))
	require.NoError(t, err)
	const from = "defaultRole: pods-default"
	require.Contains(t, string(spec), from)
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(spec), from, "defaultRole: uploader.media.sa.migrating.example.com", 1)), 0o644))
	c := newCLI(t)
	before := c.storeFiles()
	r := c.run("create", "-f", path)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `spec.podMetadataAccess.forward.defaultRole: Invalid value: "uploader.media.sa.migrating.example.com": is a service account's role`)
	assert.Equal(t, before, c.storeFiles(), "nothing is stored")
}
