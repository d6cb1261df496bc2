package updatecluster

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// Changing podMetadataAccess.mode adds and removes kube2iam's manifest, and the dry run says so.
func TestKube2IAMModeTransitions(t *testing.T) {
	s := newGoldenStore(t, "kube2iam")
	const manifest = "addons/kube2iam.addons.k8s.io/k8s-1.12.yaml"
	setMode := func(t *testing.T, mode string) {
		cluster, _, err := s.clientset.GetCluster(s.name)
		require.NoError(t, err)
		cluster.Spec.PodMetadataAccess.Mode = mode
		require.NoError(t, s.clientset.UpdateCluster(cluster))
	}
	_, result := s.update(t, cloudup.TargetDirect)
	require.True(t, result.Changed)
	require.Contains(t, s.addonFiles(t), manifest)

	steps := []struct {
		mode    string
		present bool
		report  string
	}{
		{kops.PodMetadataAccessBlock, false, "Will delete resources:\n  StaleFiles/addons\n  \tkube2iam.addons.k8s.io\t" + manifest + "\n"},
		{kops.PodMetadataAccessAllow, false, "No changes need to be applied\n"},
		{kops.PodMetadataAccessForward, true, "Will create resources:\n  ManagedFile/" + manifest + "\n"},
	}
	for _, step := range steps {
		t.Run(step.mode, func(t *testing.T) {
			setMode(t, step.mode)
			report, _ := s.update(t, cloudup.TargetDryRun)
			assert.Contains(t, report, step.report)
			s.update(t, cloudup.TargetDirect)
			files := s.addonFiles(t)
			_, present := files[manifest]
			assert.Equal(t, step.present, present)
			assert.Equal(t, step.present, strings.Contains(files["addons/bootstrap-channel.yaml"], "name: kube2iam.addons.k8s.io"))
			again, _ := s.update(t, cloudup.TargetDirect)
			assert.Equal(t, "No changes need to be applied\n", again)
		})
	}
}
