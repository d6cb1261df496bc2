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

package updatecluster

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform/tfverify"
	"k8s.io/kops/util/pkg/vfs"
)

// terraformPrefix is where a case's terraform output is pinned below expected/.
const terraformPrefix = "terraform/"

// wantsTerraform reads the case's optional `targets` file: one extra target per line. "terraform"
// pins kubernetes.tf and data/ of `--target terraform --out DIR --yes` under expected/terraform/.
func wantsTerraform(t *testing.T, dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "targets"))
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		switch line = strings.TrimSpace(line); line {
		case "", "dryrun", "direct":
		case cloudup.TargetTerraform:
			return true
		default:
			t.Fatalf("%s/targets: unknown target %q", dir, line)
		}
	}
	return false
}

// updateTerraform runs `--target terraform --out memfs://golden-out/<case> --yes` and returns the
// files below --out keyed "terraform/<path>", after checking them with hclparse (every reference
// resolves, every data file exists and is read) and that a second run changes and writes nothing.
func (s *goldenStore) updateTerraform(t *testing.T) map[string]string {
	t.Helper()
	outDir := "memfs://golden-out/" + s.name
	run := func() *cloudup.ApplyResult {
		var report bytes.Buffer
		result, err := cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
			Clientset: s.clientset, ClusterName: s.name, Flags: s.flags, Target: cloudup.TargetTerraform, Nodeup: goldenNodeup,
			OutDir: outDir, Yes: true, Out: &report,
		})
		require.NoError(t, err)
		return result
	}
	require.True(t, run().Changed)

	out, err := vfs.ParsePath(outDir, s.mem)
	require.NoError(t, err)
	files := map[string][]byte{}
	readTree(t, out, "", files)
	require.Contains(t, files, terraform.MainFile)
	assert.NoError(t, tfverify.Verify(files, terraform.DataDir), "every reference in kubernetes.tf resolves")
	assert.Equal(t, string(hclwrite.Format(files[terraform.MainFile])), string(files[terraform.MainFile]), "terraform fmt changes nothing (the tokens the target lists are those HCL lexes from the bytes)")

	before, _ := s.mem.Stats()
	assert.False(t, run().Changed, "a second terraform run changes nothing")
	after, _ := s.mem.Stats()
	assert.Equal(t, before, after, "and writes nothing")

	got := map[string]string{}
	for path, data := range files {
		got[terraformPrefix+path] = string(data)
	}
	return got
}

// readTree reads every file below p into files, keyed by slash-separated path below the root.
func readTree(t *testing.T, p vfs.Path, rel string, files map[string][]byte) {
	children, err := p.ReadDir()
	if err != nil {
		data, readErr := p.ReadFile()
		require.NoError(t, readErr)
		files[rel] = data
		return
	}
	for _, c := range children {
		readTree(t, c, strings.TrimPrefix(rel+"/"+c.Base(), "/"), files)
	}
}

// Switching a cluster from Block to Allow is shown, before anything is written, as the launch
// templates' metadata options changing in kubernetes.tf, each hunk headed by its resource; the
// dry run without --out lists the templates with their new options.
func TestTerraformModeChangeShowsLaunchTemplateDiffs(t *testing.T) {
	s := newGoldenStore(t, "pod-metadata-block")
	s.updateTerraform(t)

	cluster, _, err := s.clientset.GetCluster(s.name)
	require.NoError(t, err)
	cluster.Spec.PodMetadataAccess = &kops.PodMetadataAccessSpec{Mode: kops.PodMetadataAccessAllow}
	require.NoError(t, s.clientset.UpdateCluster(cluster))

	before, _ := s.mem.Stats()
	var report bytes.Buffer
	result, err := cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
		Clientset: s.clientset, ClusterName: s.name, Flags: s.flags, Target: cloudup.TargetTerraform, Nodeup: goldenNodeup,
		OutDir: "memfs://golden-out/" + s.name, Out: &report,
	})
	require.NoError(t, err)
	assert.True(t, result.Changed)
	after, _ := s.mem.Stats()
	assert.Equal(t, before, after, "the preview writes nothing")

	text := report.String()
	// The node files under igconfig/ change too, and are listed before the terraform files.
	assert.Contains(t, text, "Will modify resources:\n")
	assert.Contains(t, text, "\n  TerraformFile/kubernetes.tf\n")
	assert.Contains(t, text, "\n  ManagedFile/igconfig/node/nodes/kops-pod-metadata-access.sh\n")
	for _, lt := range []string{"control-plane-us-east-2a-masters-pod-metadata-block-example-com", "nodes-pod-metadata-block-example-com"} {
		header := "--- resource aws_launch_template." + lt + " (current)\n"
		require.Contains(t, text, header)
		hunk := text[strings.Index(text, header):]
		if next := strings.Index(hunk[len(header):], "--- resource "); next >= 0 {
			hunk = hunk[:len(header)+next]
		}
		assert.Contains(t, hunk, "  \t    -    http_put_response_hop_limit = 1\n", lt)
		assert.Contains(t, hunk, "  \t    +    http_put_response_hop_limit = 2\n", lt)
	}
	assert.NotContains(t, text, "--- resource aws_iam_role.", "only what changed is shown")

	var dryRun bytes.Buffer
	_, err = cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
		Clientset: s.clientset, ClusterName: s.name, Flags: s.flags, Target: cloudup.TargetDryRun, Out: &dryRun, Nodeup: goldenNodeup,
	})
	require.NoError(t, err)
	assert.Contains(t, dryRun.String(), "MetadataOptions     \tendpoint enabled, tokens required, hop limit 2,")
}
