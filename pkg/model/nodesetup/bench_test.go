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

package nodesetup

import (
	"fmt"
	"testing"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
)

// BenchmarkBuilder200Groups: the node files of 200 instance groups (rendered once, shared).
func BenchmarkBuilder200Groups(b *testing.B) {
	c := testCluster("Forward", true, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	ctx := &model.KopsModelContext{Cluster: c}
	for i := range 200 {
		ctx.InstanceGroups = append(ctx.InstanceGroups, group(fmt.Sprintf("nodes-%03d", i), kops.RoleNode))
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := (&Builder{Context: ctx}).Build(&fi.ModelBuilderContext{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUserData: one launch template's user data, as the AWS model asks per group.
func BenchmarkUserData(b *testing.B) {
	c := testCluster("Forward", true, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	ig := group("nodes", kops.RoleNode)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := UserData(c, ig, nil); err != nil {
			b.Fatal(err)
		}
	}
}
