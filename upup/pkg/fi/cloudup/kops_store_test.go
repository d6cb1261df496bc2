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

package cloudup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
	"k8s.io/kops/util/pkg/vfs"
)

// TestKopsWrittenStoreBuilds: a cluster as kops 1.28 stored it (no podMetadataAccess; IMDSv2
// required, hop limit 3 on the control plane and 1 on the nodes) runs Kubernetes 1.28, which this
// build does not support (nor does current kops: "kubernetes upgrade is required"), so update
// refuses it naming spec.kubernetesVersion. Once its version is raised, as `kops edit cluster`
// would, it is valid, defaults to Block, and its launch templates keep kops's metadata options.
func TestKopsWrittenStoreBuilds(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../../../../pkg/client/testdata/kops-1.28-state")))
	base, err := vfs.ParsePath("file://"+dir, nil)
	require.NoError(t, err)
	_, _, err = LoadModelContext(client.New(base), "prod.example.com", featureflag.Set{})
	require.ErrorContains(t, err, `spec.kubernetesVersion: Invalid value: "1.28.7": is not supported: this build supports Kubernetes 1.30 to 1.36`)

	config := filepath.Join(dir, "prod.example.com", "config")
	data, err := os.ReadFile(config)
	require.NoError(t, err)
	upgraded := strings.Replace(string(data), "kubernetesVersion: 1.28.7\n", "kubernetesVersion: 1.30.14\n", 1)
	require.NotEqual(t, string(data), upgraded)
	require.NoError(t, os.WriteFile(config, []byte(upgraded), 0o644))
	ctx, _, err := LoadModelContext(client.New(base), "prod.example.com", featureflag.Set{})
	require.NoError(t, err)
	assert.Equal(t, kops.PodMetadataAccessBlock, ctx.Cluster.Spec.PodMetadataMode())

	// As kops stored them, the groups carry no bootstrap of their own: no template is written.
	tasks, err := BuildTasks(ctx)
	require.NoError(t, err)
	assert.Empty(t, launchTemplates(tasks), "a template without a bootstrap would boot machines that never join")

	// Told where nodeup is, the control plane gets our bootstrap; the nodes carry theirs.
	ctx.Nodeup = model.NodeupSource{"amd64": {URLs: []string{"https://example.com/nodeup"}, SHA256: strings.Repeat("ab", 32)}}
	for _, ig := range ctx.InstanceGroups {
		if ig.Name == "nodes-us-east-2a" {
			ig.Spec.AdditionalUserData = []kops.UserData{{Name: "nodeup.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\n"}}
		}
	}
	tasks, err = BuildTasks(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[string]awstasks.MetadataOptions{
		"control-plane-us-east-2a.masters.prod.example.com": {HTTPTokens: "required", HopLimit: 3},
		"nodes-us-east-2a.prod.example.com":                 {HTTPTokens: "required", HopLimit: 1},
	}, launchTemplates(tasks), "kops's names, and the metadata options the groups say")
}

func launchTemplates(tasks []fi.Task) map[string]awstasks.MetadataOptions {
	got := map[string]awstasks.MetadataOptions{}
	for _, task := range tasks {
		if lt, ok := task.(*awstasks.LaunchTemplate); ok {
			got[lt.Name] = lt.Metadata
		}
	}
	return got
}
