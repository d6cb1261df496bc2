package awsmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

// Long names are cut as kops cuts them, so that they name the objects kops made; the expected
// names are those of kops's update_cluster case minimal-longclustername.
func TestLongNamesAreKops(t *testing.T) {
	const long = "this.is.truly.a.really.really.really.really.really.long.cluster-name.minimal.example.com"
	ctx := &model.KopsModelContext{Cluster: &kops.Cluster{}}
	ctx.Cluster.Name = long
	for role, want := range map[kops.InstanceGroupRole]string{
		kops.RoleControlPlane: "masters.this.is.truly.a.really.really.really.really.reall-g6fsnu",
		kops.RoleNode:         "nodes.this.is.truly.a.really.really.really.really.really.-d86ibl",
	} {
		got, err := iamName(ctx, role)
		assert.NoError(t, err)
		assert.Equal(t, want, got, role)
		assert.LessOrEqual(t, len(got), maxIAMNameLength)
	}
	assert.Equal(t, "this-is-truly-a-really-really-really-really-really-long-cluster-name-ueip1f-nth", queueName(long))
	assert.Equal(t, "nodes.a.example.com", truncateName("nodes.a.example.com", maxIAMNameLength), "a name that fits is kept")
}
