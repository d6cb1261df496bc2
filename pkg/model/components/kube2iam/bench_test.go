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
