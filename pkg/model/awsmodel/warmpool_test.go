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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

// roleGrants are the built policies as "policy <role>: <action> on <resource><condition>" lines.
func roleGrants(t *testing.T, ctx *model.KopsModelContext) []string {
	var out []string
	for role, p := range policiesOf(build(t, ctx)) {
		for _, f := range grantFacts(p) {
			out = append(out, "policy "+role+": "+f)
		}
	}
	return out
}

func warmPoolField(fields map[string]interface{}) kops.Unmodeled {
	return kops.Unmodeled{unmodeled(fields, "spec", "warmPool")}
}

// hookRights are kops's rights for a warm pool's lifecycle hook.
var hookRights = []string{
	"policy nodes.a.example.com: autoscaling:CompleteLifecycleAction on * if StringEquals aws:ResourceTag/KubernetesCluster=a.example.com",
	"policy nodes.a.example.com: autoscaling:DescribeLifecycleHooks on *",
}

// Which roles get the lifecycle hook's rights follows kops's WarmPoolSpec.ResolveDefaults: the
// cluster's warm pool reaches nodes (not the control plane), a group's own wins field by field, and
// maxSize 0 turns it off.
func TestWarmPoolLifecycleHookRights(t *testing.T) {
	hook := map[string]interface{}{"enableLifecycleHook": true, "maxSize": 1}
	tests := []struct {
		name          string
		cluster, node map[string]interface{}
		wantHook      bool
	}{
		{"no warm pool", nil, nil, false},
		{"the cluster's, with the hook", hook, nil, true},
		{"the cluster's, without the hook", map[string]interface{}{"maxSize": 1}, nil, false},
		{"the cluster's, turned off", map[string]interface{}{"enableLifecycleHook": true, "maxSize": 0}, nil, false},
		{"the group's own", nil, map[string]interface{}{"enableLifecycleHook": true}, true},
		{"the group's own takes the cluster's hook", map[string]interface{}{"enableLifecycleHook": true}, map[string]interface{}{"minSize": 1}, true},
		{"the group's own turns it off", hook, map[string]interface{}{"maxSize": 0}, false},
		{"a size from YAML as a float", map[string]interface{}{"enableLifecycleHook": true, "maxSize": 2.0}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				if tc.cluster != nil {
					c.Unmodeled = warmPoolField(tc.cluster)
				}
				if tc.node != nil {
					igs[1].Unmodeled = warmPoolField(tc.node)
				}
			})
			all := roleGrants(t, ctx)
			for _, right := range hookRights {
				if tc.wantHook {
					assert.Contains(t, all, right)
				} else {
					assert.NotContains(t, all, right)
				}
			}
			for _, f := range all {
				if !tc.wantHook || !strings.HasPrefix(f, "policy nodes.") {
					assert.NotContains(t, f, "LifecycleHooks", "only the nodes' role, and only with the hook")
				}
			}
		})
	}
}

func TestWarmPoolOnAPIServersAndItsWarning(t *testing.T) {
	ctx := modelContext(t, "", nil)
	api := group("api", kops.RoleAPIServer)
	api.Unmodeled = warmPoolField(map[string]interface{}{"enableLifecycleHook": true})
	ctx.InstanceGroups = append(ctx.InstanceGroups, api)
	all := roleGrants(t, ctx)
	assert.Contains(t, all, "policy apiservers.a.example.com: autoscaling:DescribeLifecycleHooks on *")
	assert.NotContains(t, all, hookRights[1], "the nodes have no warm pool")

	warnings, err := Warnings(ctx)
	require.NoError(t, err)
	assert.Contains(t, warnings, warmPoolWarning("api"))
	assert.Contains(t, warmPoolWarning("api"), `instance group "api": spec.warmPool: `)
}

func TestWarmPoolErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster, igs []*kops.InstanceGroup)
		want   string
	}{
		{"on the control plane", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[0].Unmodeled = warmPoolField(map[string]interface{}{"maxSize": 1})
		}, `instance group "control-plane-us-east-2a": spec.warmPool: warm pools are only for groups of role Node or APIServer`},
		{"on a bastion", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[2].Unmodeled = warmPoolField(map[string]interface{}{})
		}, `instance group "bastions": spec.warmPool: warm pools are only`},
		{"a size that is no number", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			c.Unmodeled = warmPoolField(map[string]interface{}{"maxSize": "two"})
		}, "spec.warmPool.maxSize: must be a whole number, not two"},
		{"a hook that is no bool", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[1].Unmodeled = warmPoolField(map[string]interface{}{"enableLifecycleHook": "yes"})
		}, `instance group "nodes": spec.warmPool.enableLifecycleHook: must be true or false, not yes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readFacts(modelContext(t, "", tc.mutate))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// The cluster's warm pool reaches no control plane, so it is no error there.
	_, err := readFacts(modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
		c.Unmodeled = warmPoolField(map[string]interface{}{"maxSize": 1})
	}))
	assert.NoError(t, err)
}

// useECRCredentialsForMirrors gives every role that pulls images kops's pull-through rights, on the
// region's repositories only.
func TestECRMirrorRights(t *testing.T) {
	actions := []string{"ecr:BatchImportUpstreamImage", "ecr:CreateRepository", "ecr:ReplicateImage", "ecr:TagResource"}
	for _, on := range []bool{false, true} {
		ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			c.Unmodeled = kops.Unmodeled{unmodeled(map[string]interface{}{"useECRCredentialsForMirrors": on}, "spec", "containerd")}
		})
		ctx.InstanceGroups = append(ctx.InstanceGroups, group("api", kops.RoleAPIServer))
		all := roleGrants(t, ctx)
		for _, role := range []string{"masters", "apiservers", "nodes"} {
			for _, a := range actions {
				fact := "policy " + role + ".a.example.com: " + a + " on arn:aws:ecr:us-east-2:*:repository/*"
				if on {
					assert.Contains(t, all, fact)
				} else {
					assert.NotContains(t, all, fact)
				}
			}
		}
		for _, f := range all {
			assert.NotContains(t, f, "bastions.a.example.com: ecr:", "bastions pull no images")
		}
	}
}
