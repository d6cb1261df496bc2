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
