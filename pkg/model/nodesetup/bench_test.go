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
