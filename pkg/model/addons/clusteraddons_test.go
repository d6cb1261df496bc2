package addons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/model"
)

func object(apiVersion, kind, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": apiVersion, "kind": kind}}
	if name != "" {
		u.SetName(name)
	}
	return u
}

// Component configuration kept with the cluster (kops create -f) is not shipped to the API server,
// which has no such kind.
func TestClusterAddonsLeaveOutComponentConfig(t *testing.T) {
	ctx := &model.KopsModelContext{FeatureFlags: operatorContext(t, nil, nil).FeatureFlags}
	scheduler := object("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", "")

	ctx.ClusterAddons = []*unstructured.Unstructured{scheduler}
	addons, err := ClusterAddons{}.Addons(ctx)
	require.NoError(t, err)
	assert.Empty(t, addons, "nothing to ship")

	ctx.ClusterAddons = []*unstructured.Unstructured{scheduler, object("v1", "ConfigMap", "extra")}
	addons, err = ClusterAddons{}.Addons(ctx)
	require.NoError(t, err)
	require.Len(t, addons, 1)
	assert.Contains(t, string(addons[0].Manifest), "kind: ConfigMap")
	assert.NotContains(t, string(addons[0].Manifest), "KubeSchedulerConfiguration")
}
