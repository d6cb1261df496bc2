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

package kube2iam

import "testing"

// BenchmarkRender is the cost kube2iam adds to every `kops update cluster` in mode Forward.
func BenchmarkRender(b *testing.B) {
	c := Config{Image: DefaultImage, Port: 8181, BaseRoleARN: "arn:aws:iam::123456789012:role/", DefaultRole: "pods", NamespaceRestrictions: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(c); err != nil {
			b.Fatal(err)
		}
	}
}
