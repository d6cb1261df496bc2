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

package confine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/pkg/operator/operatortest"
)

// metricsServerScaler would scale metrics-server's Deployment: a descriptor other than CoreDNS's,
// with another MaxReplicas, so that the bound is seen to follow the descriptor.
func metricsServerScaler() *confine.Scaler {
	d := metricsServer()
	return &confine.Scaler{Namespace: d.WatchNamespace, ServiceAccount: "scaler", Deployment: d.Managed[0].Name,
		PolicyName: "scaler-replicas", ProbeName: "scaler-probe", Labels: map[string]string{"app": "scaler"}}
}

// The scaler's policy admits exactly the counts of the descriptor's ReplicaBounds, through the
// scale subresource (an omitted count is 0) and on the Deployment itself.
func TestScalerPolicyFollowsReplicaBounds(t *testing.T) {
	d := metricsServer()
	require.Equal(t, "Deployment", d.Managed[0].Kind)
	s := metricsServerScaler()
	min, max := d.ReplicaBounds()
	require.Equal(t, int64(1), min)
	require.Equal(t, d.MaxReplicas, max)
	objects, err := d.ScalerPolicyObjects(s)
	require.NoError(t, err)
	policies, err := operatortest.Compile(objects)
	require.NoError(t, err)

	for n := int64(0); n <= max+2; n++ {
		spec := map[string]interface{}{}
		if n != 0 {
			spec["replicas"] = n
		}
		meta := map[string]interface{}{"name": s.Deployment, "namespace": d.WatchNamespace}
		for sub, obj := range map[string]map[string]interface{}{
			"scale": {"kind": "Scale", "metadata": meta, "spec": spec},
			"":      {"kind": "Deployment", "metadata": meta, "spec": map[string]interface{}{"replicas": n}},
		} {
			denied, err := policies.Denials(operatortest.Request{Operation: "UPDATE", Group: "apps", Resource: "deployments", SubResource: sub,
				Namespace: d.WatchNamespace, Username: s.Username(), Object: obj})
			require.NoError(t, err)
			assert.Equal(t, n >= min && n <= max, len(denied) == 0, "%d replicas, subresource %q: %v", n, sub, denied)
		}
	}
}

func TestScalerRefusesIncompleteNames(t *testing.T) {
	d := metricsServer()
	for name, c := range map[string]struct {
		change func(*confine.Scaler)
		want   string
	}{
		"no policy name":          {func(s *confine.Scaler) { s.PolicyName = "" }, "PolicyName: required"},
		"no identity":             {func(s *confine.Scaler) { s.ServiceAccount = "" }, "ServiceAccount: required"},
		"the probe is the target": {func(s *confine.Scaler) { s.ProbeName = s.Deployment }, "ProbeName: must differ from Deployment"},
		"an unmanaged Deployment": {func(s *confine.Scaler) { s.Deployment = "other" }, `"other" is not a Deployment the`},
	} {
		s := metricsServerScaler()
		c.change(s)
		_, err := d.ScalerPolicyObjects(s)
		assert.ErrorContains(t, err, c.want, name)
	}
}
