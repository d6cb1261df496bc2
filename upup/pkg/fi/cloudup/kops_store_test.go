package cloudup

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
	"k8s.io/kops/util/pkg/vfs"
)

// TestKopsWrittenStoreBuilds: a cluster as kops 1.28 stored it (no podMetadataAccess; IMDSv2
// required, hop limit 3 on the control plane and 1 on the nodes) is valid, defaults to Block, and its
// launch templates keep kops's metadata options.
func TestKopsWrittenStoreBuilds(t *testing.T) {
	abs, err := filepath.Abs("../../../../pkg/client/testdata/kops-1.28-state")
	require.NoError(t, err)
	base, err := vfs.ParsePath("file://"+abs, nil)
	require.NoError(t, err)
	ctx, _, err := LoadModelContext(client.New(base), "prod.example.com", featureflag.Set{})
	require.NoError(t, err)
	assert.Equal(t, kops.PodMetadataAccessBlock, ctx.Cluster.Spec.PodMetadataMode())

	tasks, err := BuildTasks(ctx)
	require.NoError(t, err)
	got := map[string]awstasks.MetadataOptions{}
	for _, task := range tasks {
		if lt, ok := task.(*awstasks.LaunchTemplate); ok {
			got[lt.Name] = lt.Metadata
		}
	}
	assert.Equal(t, map[string]awstasks.MetadataOptions{
		"control-plane-us-east-2a.prod.example.com": {HTTPTokens: "required", HopLimit: 3},
		"nodes-us-east-2a.prod.example.com":         {HTTPTokens: "required", HopLimit: 1},
	}, got)
}
