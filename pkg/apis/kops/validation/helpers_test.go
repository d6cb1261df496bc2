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

package validation

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

const clusterName = "mycluster.example.com"

// rawCluster is the minimal cluster a user writes; tests complete it with kops.CompleteCluster so
// that defaults and validation are exercised together.
func rawCluster() *kops.Cluster {
	return &kops.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: clusterName},
		Spec: kops.ClusterSpec{
			KubernetesVersion: "1.34.2",
			CloudProvider:     "aws",
			NetworkCIDR:       "172.20.0.0/16",
			Subnets: []kops.ClusterSubnetSpec{
				{Name: "us-east-2a", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePublic},
			},
		},
	}
}

// completed applies mutate to a raw cluster and completes it.
func completed(t *testing.T, mutate func(c *kops.Cluster)) *kops.Cluster {
	t.Helper()
	c := rawCluster()
	if mutate != nil {
		mutate(c)
	}
	out := kops.CompleteCluster(c, "memfs://test")
	require.NotNil(t, out)
	return out
}

func ig(name string, role kops.InstanceGroupRole) *kops.InstanceGroup {
	return &kops.InstanceGroup{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{kops.LabelClusterName: clusterName}},
		Spec: kops.InstanceGroupSpec{
			Role:    role,
			MinSize: ptr[int32](1),
			MaxSize: ptr[int32](1),
			Subnets: []string{"us-east-2a"},
		},
	}
}

func ptr[T any](v T) *T { return &v }

// want is one expected error: its type, field path and, optionally, a fragment of its detail.
type want struct {
	typ    field.ErrorType
	path   string
	detail string
}

func (w want) String() string { return fmt.Sprintf("%s %s", w.path, w.typ) }

// assertErrors checks that errs holds exactly the wanted errors, in any order: a missing error
// means a check broke, an extra one means a valid value is rejected.
func assertErrors(t *testing.T, errs field.ErrorList, wants ...want) {
	t.Helper()
	var got, exp []string
	for _, e := range errs {
		got = append(got, want{typ: e.Type, path: e.Field}.String())
	}
	for _, w := range wants {
		exp = append(exp, w.String())
	}
	sort.Strings(got)
	sort.Strings(exp)
	if !assert.Equal(t, exp, got, "errors:\n%s", errs.ToAggregate()) {
		return
	}
	for _, w := range wants {
		if w.detail == "" {
			continue
		}
		assert.True(t, hasDetail(errs, w), "no %s error with detail containing %q in:\n%s", w, w.detail, errs.ToAggregate())
	}
}

func hasDetail(errs field.ErrorList, w want) bool {
	for _, e := range errs {
		if e.Type == w.typ && e.Field == w.path && strings.Contains(e.Error(), w.detail) {
			return true
		}
	}
	return false
}
