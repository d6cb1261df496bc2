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

package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator"
)

// desiredObjects are the objects the operator applies for spec, rendered with facts: the runtime's
// pick (manager.Addon.Objects) of the CoreDNS rendering.
func desiredObjects(spec Spec, facts Facts) ([]*unstructured.Unstructured, error) {
	addon := Addon(facts)
	return addon.Objects(spec)
}

// appliedInOrder are the managed objects in the order the operator applies them: what the
// Deployment runs as, mounts and is reached by, then the Deployment.
var appliedInOrder = []string{"ServiceAccount/kube-system/coredns", "ConfigMap/kube-system/coredns", "Service/kube-system/kube-dns", "Deployment/kube-system/coredns"}

// The field manager e2e tests and docs name is the one the runtime applies with.
func TestFieldManager(t *testing.T) {
	addon := Addon(DefaultFacts())
	assert.Equal(t, FieldManager(), addon.FieldManager())
	assert.Equal(t, "coredns-operator", FieldManager())
}

// The operator never moves DNS: a Service whose cluster IP is not spec.dnsIP is not applied; the
// address compares as an address, and other objects and a missing Service are not its concern.
func TestCheckClusterIP(t *testing.T) {
	service := func(ip string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"clusterIP": ip}}}
	}
	svc := operator.Managed{Kind: "Service", Name: coredns.CoreDNSService}
	assert.NoError(t, checkClusterIP(Spec{DNSIP: "100.64.0.10"}, svc, service("100.64.0.10")))
	assert.NoError(t, checkClusterIP(Spec{DNSIP: "fd00::a"}, svc, service("fd00:0::a")), "the same address written differently")
	assert.NoError(t, checkClusterIP(Spec{DNSIP: "100.64.0.10"}, svc, nil), "no Service yet: it is created at that address")
	assert.NoError(t, checkClusterIP(Spec{DNSIP: "100.64.0.10"}, operator.Managed{Kind: "ConfigMap", Name: "coredns"}, service("100.64.0.99")))
	err := checkClusterIP(Spec{DNSIP: "100.64.0.11"}, svc, service("100.64.0.10"))
	assert.ErrorContains(t, err, `spec.dnsIP "100.64.0.11" differs from the clusterIP "100.64.0.10" of Service kube-system/kube-dns, which cannot change in place`)
}

var testSpec = Spec{
	Version:   "1.12.4",
	Image:     "registry.example.com/coredns/coredns:v1.12.4",
	DNSDomain: "cluster.local",
	DNSIP:     "100.64.0.10",
	Corefile:  ".:53 {\n    forward . /etc/resolv.conf\n}\n",
	// From sha256sum.
	CorefileChecksum: "e0cf6021dd5f3f9935d6ec3f5de1dc4004eb6cdec039c72a2ff9f831549f1cb7",
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
	assert.Equal(t, appliedInOrder, kinds)

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

// A Corefile change changes the ConfigMap and, through the checksum, the Deployment's pod template
// (so CoreDNS rolls out with it), and nothing else of the Deployment.
func TestCorefileChangeRollsTheDeployment(t *testing.T) {
	objects, err := desiredObjects(testSpec, DefaultFacts())
	require.NoError(t, err)
	changed := testSpec
	changed.Corefile += "# more\n"
	changed.CorefileChecksum = coredns.CorefileChecksum(changed.Corefile)
	other, err := desiredObjects(changed, DefaultFacts())
	require.NoError(t, err)
	assert.NotEqual(t, objects[1].Object, other[1].Object, "the ConfigMap")
	annotation := []string{"spec", "template", "metadata", "annotations", coredns.CorefileChecksumAnnotation}
	before, _, _ := unstructured.NestedString(objects[3].Object, annotation...)
	after, _, _ := unstructured.NestedString(other[3].Object, annotation...)
	assert.Equal(t, testSpec.CorefileChecksum, before)
	assert.Equal(t, changed.CorefileChecksum, after)
	unstructured.RemoveNestedField(objects[3].Object, annotation...)
	unstructured.RemoveNestedField(other[3].Object, annotation...)
	assert.Equal(t, objects[3].Object, other[3].Object, "the Deployment but for the checksum")
}

// The operator refuses, before applying anything, a spec whose checksum is missing or is not its
// Corefile's: a hand edit of spec.corefile alone would otherwise change the ConfigMap without
// rolling CoreDNS.
func TestCheckSpecRefusesAStaleChecksum(t *testing.T) {
	assert.NoError(t, checkSpec(testSpec))
	edited := testSpec
	edited.Corefile += "# edited by hand\n"
	assert.ErrorContains(t, checkSpec(edited), "spec.corefileChecksum "+testSpec.CorefileChecksum+" is not the SHA-256 of spec.corefile ("+coredns.CorefileChecksum(edited.Corefile)+")")
	assert.ErrorContains(t, checkSpec(edited), "nothing was applied")
	missing := testSpec
	missing.CorefileChecksum = ""
	assert.ErrorContains(t, checkSpec(missing), "spec.corefileChecksum is missing: it must be the SHA-256 of spec.corefile ("+testSpec.CorefileChecksum+")")
	hostile := testSpec
	hostile.Corefile = ".:53 {\n    file /var/run/secrets/kubernetes.io/serviceaccount/token example.com\n}\n"
	hostile.CorefileChecksum = coredns.CorefileChecksum(hostile.Corefile)
	assert.ErrorContains(t, checkSpec(hostile), "spec.corefile is refused", "a matching checksum does not excuse the Corefile")
}
