package app

import (
	"k8s.io/kops/pkg/model/components/operator"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var testSpec = Spec{
	Version:   "1.12.4",
	Image:     "registry.example.com/coredns/coredns:v1.12.4",
	DNSDomain: "cluster.local",
	DNSIP:     "100.64.0.10",
	Corefile:  ".:53 {\n    forward . /etc/resolv.conf\n}\n",
}

func TestDesiredObjects(t *testing.T) {
	objects, err := desiredObjects(testSpec, DefaultFacts())
	require.NoError(t, err)
	var kinds []string
	for _, o := range objects {
		kinds = append(kinds, o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName())
		assert.NotContains(t, o.GetLabels(), operator.ChannelsLabels[0], "%s: channels' label is left to channels", o.GetName())
		assert.NotContains(t, o.GetAnnotations(), operator.ChannelsAnnotations[0], o.GetName())
	}
	assert.Equal(t, []string{"ServiceAccount/kube-system/coredns", "ConfigMap/kube-system/coredns", "Service/kube-system/kube-dns", "Deployment/kube-system/coredns"}, kinds)

	corefile, _, _ := unstructured.NestedString(objects[1].Object, "data", "Corefile")
	assert.Equal(t, testSpec.Corefile, corefile)
	clusterIP, _, _ := unstructured.NestedString(objects[2].Object, "spec", "clusterIP")
	assert.Equal(t, testSpec.DNSIP, clusterIP)
	containers, _, _ := unstructured.NestedSlice(objects[3].Object, "spec", "template", "spec", "containers")
	require.Len(t, containers, 1)
	assert.Equal(t, testSpec.Image, containers[0].(map[string]any)["image"])
}

func TestDesiredObjectsRefusesBadSpecs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Spec)
		want   string
	}{
		{"no image", func(s *Spec) { s.Image = "" }, "image is empty"},
		{"no Corefile", func(s *Spec) { s.Corefile = "" }, "corefile is empty"},
		{"dnsIP not an address", func(s *Spec) { s.DNSIP = "kube-dns" }, `dnsIP "kube-dns" is not an IP address`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := testSpec
			tc.change(&spec)
			_, err := desiredObjects(spec, DefaultFacts())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
