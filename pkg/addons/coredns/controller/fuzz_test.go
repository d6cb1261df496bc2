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
	"net/netip"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzCoreDNSObject: the CoreDNS object is the operator's only input, and anyone who may edit it
// writes it. Reading it as Reconcile does and rendering its spec must not panic and must work in
// proportion to the input; what renders is the four managed objects in order, carrying the spec's
// Corefile, its checksum, image and dnsIP exactly as given (the operator never derives them again). Any Corefile
// the CRD admits (UTF-8, at most 64 KiB) must render: a quoting slip in the template would
// otherwise refuse it or change the DNS configuration.
func FuzzCoreDNSObject(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"addons.x-k8s.io/v1alpha1","kind":"CoreDNS","metadata":{"name":"coredns","namespace":"kube-system"},"spec":{"version":"1.12.4","image":"registry.example.com/coredns/coredns:v1.12.4","dnsDomain":"cluster.local","dnsIP":"100.64.0.10","corefile":".:53 {\n    forward . /etc/resolv.conf\n}\n","corefileChecksum":"e0cf6021dd5f3f9935d6ec3f5de1dc4004eb6cdec039c72a2ff9f831549f1cb7"}}`,
		`{"spec":{"image":"r.example.com/c@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","dnsIP":"fd00::a","corefile":"  leading: spaces\n\n\ttab # not a comment\n---\n\"quoted\" 'x' \\ \u00e9 \u2028"}}`,
		`{"spec":{"image":"x","dnsIP":"100.64.0.10/32","corefile":"|\n"}}`,
		`{"spec":{"version":1,"corefile":null},"status":{"healthy":"yes"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var spec Spec
		var objects []*unstructured.Unstructured
		var renderErr error
		decoded := false
		allocbound.Check(t, len(data), func() {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(data); err != nil {
				return
			}
			var obj coredns.CoreDNS
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &obj); err != nil {
				return
			}
			decoded, spec = true, obj.Spec
			objects, renderErr = desiredObjects(spec, DefaultFacts())
		})
		if !decoded {
			return
		}
		if renderErr == nil {
			checkRendering(t, spec, objects)
			return
		}
		// Rendering is refused; the Corefile must not be the reason (rendering is slow: only then
		// is it rendered again, with values known to be good).
		if spec.Corefile == "" || !utf8.ValidString(spec.Corefile) || len(spec.Corefile) > coredns.MaxCorefileBytes {
			return
		}
		withCorefile := testSpec
		withCorefile.Corefile = spec.Corefile
		withCorefile.CorefileChecksum = coredns.CorefileChecksum(spec.Corefile)
		objects, err := desiredObjects(withCorefile, DefaultFacts())
		require.NoError(t, err, "a Corefile the CRD admits is refused: %q", spec.Corefile)
		checkRendering(t, withCorefile, objects)
	})
}

// checkRendering requires the managed objects in order, with the spec's values as given.
func checkRendering(t *testing.T, spec Spec, objects []*unstructured.Unstructured) {
	require.Len(t, objects, len(appliedInOrder))
	for i, want := range appliedInOrder {
		assert.Equal(t, want, objects[i].GetKind()+"/"+objects[i].GetNamespace()+"/"+objects[i].GetName())
	}
	corefile, _, _ := unstructured.NestedString(objects[1].Object, "data", "Corefile")
	assert.Equal(t, spec.Corefile, corefile, "the ConfigMap's Corefile")
	clusterIP, _, _ := unstructured.NestedString(objects[2].Object, "spec", "clusterIP")
	want, err := netip.ParseAddr(spec.DNSIP)
	require.NoError(t, err)
	got, err := netip.ParseAddr(clusterIP)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the Service's clusterIP")
	containers, _, _ := unstructured.NestedSlice(objects[3].Object, "spec", "template", "spec", "containers")
	require.Len(t, containers, 1)
	assert.Equal(t, spec.Image, containers[0].(map[string]any)["image"], "the CoreDNS image")
	checksum, _, _ := unstructured.NestedString(objects[3].Object, "spec", "template", "metadata", "annotations", coredns.CorefileChecksumAnnotation)
	assert.Equal(t, spec.CorefileChecksum, checksum, "the pod template's Corefile checksum")
}
