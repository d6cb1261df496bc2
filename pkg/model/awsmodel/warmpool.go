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
	"fmt"
	"math"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

// warmPool is what of kops's warmPool (on the cluster, or a group's own over it) decides IAM.
type warmPool struct {
	set, maxSizeSet bool
	maxSize         int64
	lifecycleHook   bool
}

// enabled is kops's: a warm pool is on unless its maxSize is 0.
func (w warmPool) enabled() bool { return w.set && (!w.maxSizeSet || w.maxSize != 0) }

func readWarmPool(u kops.Unmodeled, where string) (warmPool, error) {
	v, set, err := kopsField(u, "spec", "warmPool")
	if err != nil || !set {
		return warmPool{}, err
	}
	m, isMap := v.(map[string]interface{})
	if !isMap {
		return warmPool{}, fmt.Errorf("%sspec.warmPool: must be a map, not %T", where, v)
	}
	w := warmPool{set: true}
	if raw, ok := m["maxSize"]; ok && raw != nil {
		if w.maxSize, ok = wholeNumber(raw); !ok {
			return warmPool{}, fmt.Errorf("%sspec.warmPool.maxSize: must be a whole number, not %v", where, raw)
		}
		w.maxSizeSet = true
	}
	if raw, ok := m["enableLifecycleHook"]; ok && raw != nil {
		if w.lifecycleHook, ok = raw.(bool); !ok {
			return warmPool{}, fmt.Errorf("%sspec.warmPool.enableLifecycleHook: must be true or false, not %v", where, raw)
		}
	}
	return w, nil
}

func wholeNumber(v interface{}) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
	}
	return 0, false
}

// resolve is kops's WarmPoolSpec.ResolveDefaults: a group's own warm pool wins field by field over
// the cluster's, and the cluster's reaches neither the control plane nor bastions.
func (cluster warmPool) resolve(own warmPool, role kops.InstanceGroupRole) warmPool {
	controlPlaneOrBastion := role == kops.RoleControlPlane || role == kops.RoleMaster || role == kops.RoleBastion
	switch {
	case !own.set && (!cluster.set || controlPlaneOrBastion):
		return warmPool{}
	case !own.set:
		return cluster
	case !cluster.set || controlPlaneOrBastion:
		return own
	}
	out := own
	if !out.maxSizeSet {
		out.maxSize, out.maxSizeSet = cluster.maxSize, cluster.maxSizeSet
	}
	out.lifecycleHook = out.lifecycleHook || cluster.lifecycleHook
	return out
}

// readWarmPools sets lifecycleHooks, the role kinds (nodes, apiservers) some group of which has a
// warm pool with kops's lifecycle hook (their machines complete the hook once nodeup is done, as kops
// grants it), and warmPoolGroups, the groups with a warm pool. A warm pool on any other role is
// refused, as kops refuses it.
func (f *clusterFacts) readWarmPools(ctx *model.KopsModelContext) error {
	cluster, err := readWarmPool(ctx.Cluster.Unmodeled, "")
	if err != nil {
		return err
	}
	f.lifecycleHooks = map[string]bool{}
	for _, ig := range ctx.InstanceGroups {
		where := fmt.Sprintf("instance group %q: ", ig.Name)
		own, err := readWarmPool(ig.Unmodeled, where)
		if err != nil {
			return err
		}
		w := cluster.resolve(own, ig.Spec.Role)
		if !w.enabled() {
			continue
		}
		if ig.Spec.Role != kops.RoleNode && ig.Spec.Role != kops.RoleAPIServer {
			return fmt.Errorf("%sspec.warmPool: warm pools are only for groups of role Node or APIServer, as with kops; remove it or set its maxSize to 0", where)
		}
		f.warmPoolGroups = append(f.warmPoolGroups, ig.Name)
		if w.lifecycleHook {
			kind, err := roleKind(ig.Spec.Role)
			if err != nil {
				return err
			}
			f.lifecycleHooks[kind] = true
		}
	}
	return nil
}

// warmPoolWarning: a warm pool and its lifecycle hook are settings of the group's autoscaling group,
// which this build never writes, so they stay kops's to apply; only the machines' rights are here.
func warmPoolWarning(group string) string {
	return fmt.Sprintf("instance group %q: spec.warmPool: the warm pool and its lifecycle hook are settings of the group's autoscaling group, which this build does not write (it writes launch templates, not the groups that use them), so kops applies them; the group's role gets what kops grants for them (the lifecycle hook's rights, with enableLifecycleHook)", group)
}

// lifecycleHook is kops's right for nodeup on a warm pool's machines: it completes the launch hook
// of its own group (which carries the cluster's tag) once the machine is ready.
func (f *clusterFacts) lifecycleHook(role kops.InstanceGroupRole) []grant {
	kind, err := roleKind(role)
	if err != nil || !f.lifecycleHooks[kind] {
		return nil
	}
	return []grant{onEvery("autoscaling:DescribeLifecycleHooks"), f.onTagged("autoscaling:CompleteLifecycleAction")}
}

// ecrMirrors are kops's rights for containerd.useECRCredentialsForMirrors: pulling through an ECR
// pull-through cache creates the cache's repositories and imports upstream images into them. kops
// grants them on every resource; here they reach repositories in the cluster's region only, the
// region whose registries the nodes' ECR credential provider asks for tokens.
func (f *clusterFacts) ecrMirrors() []grant {
	if !f.ecrMirrorCredentials {
		return nil
	}
	return []grant{{
		actions:   []string{"ecr:BatchImportUpstreamImage", "ecr:CreateRepository", "ecr:ReplicateImage", "ecr:TagResource"},
		resources: []string{f.arn("ecr", f.region+":*:repository/*")},
	}}
}
