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
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

// With metrics-server's secure mode, validation names cert-manager when its CRDs are missing (and
// then nothing else of it), and the Issuer or Certificate that is missing or not Ready.
func TestCheckCertManager(t *testing.T) {
	crd := func(name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": map[string]interface{}{"name": name},
		}}
	}
	ready := func(kind, namespace, name, status, reason string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "cert-manager.io/v1", "kind": kind, "metadata": map[string]interface{}{"name": name, "namespace": namespace},
		}}
		if status != "" {
			u.Object["status"] = map[string]interface{}{"conditions": []interface{}{
				map[string]interface{}{"type": "Ready", "status": status, "reason": reason},
			}}
		}
		return u
	}
	const addon, cert = "metrics-server.addons.k8s.io", "kube-system/metrics-server"
	needs := certManagerNeeds{issuers: []string{addon}, certificates: []string{cert},
		needers: []string{addon + " (needsPKI)", "APIService v1beta1.metrics.k8s.io"}}
	crds := []runtime.Object{crd("issuers.cert-manager.io"), crd("certificates.cert-manager.io")}
	installed := []Check{
		{Kind: "CustomResourceDefinition", Name: "issuers.cert-manager.io", OK: true, Message: "installed"},
		{Kind: "CustomResourceDefinition", Name: "certificates.cert-manager.io", OK: true, Message: "installed"},
	}
	notInstalled := "missing: cert-manager is not installed, and metrics-server.addons.k8s.io (needsPKI), APIService v1beta1.metrics.k8s.io need it: install cert-manager on the cluster (this build does not deploy it), then run channels apply; or run without it (metrics-server: spec.metricsServer.insecure: true)"
	for name, tc := range map[string]struct {
		needs certManagerNeeds
		objs  []runtime.Object
		want  []Check
	}{
		"nothing needs it": {certManagerNeeds{}, nil, nil},
		"not installed": {needs, nil, []Check{
			{Kind: "CustomResourceDefinition", Name: "issuers.cert-manager.io", Message: notInstalled},
			{Kind: "CustomResourceDefinition", Name: "certificates.cert-manager.io", Message: notInstalled},
		}},
		"Issuer and Certificate missing": {needs, crds, append(installed,
			Check{Kind: "Issuer", Name: "kube-system/" + addon, Message: "missing: channels creates it for needsPKI, with its CA in Secret kube-system/" + addon + "-ca: run channels apply"},
			Check{Kind: "Certificate", Name: cert, Message: "missing: the addon's manifest holds it: run channels apply"})},
		"no status, not ready": {needs, append(crds, ready("Issuer", "kube-system", addon, "", ""), ready("Certificate", "kube-system", "metrics-server", "False", "DoesNotExist")), append(installed,
			Check{Kind: "Issuer", Name: "kube-system/" + addon, Message: "not ready: cert-manager has reported no Ready condition (is cert-manager running?)"},
			Check{Kind: "Certificate", Name: cert, Message: "not ready: DoesNotExist"})},
		"ready": {needs, append(crds, ready("Issuer", "kube-system", addon, "True", "KeyPairVerified"), ready("Certificate", "kube-system", "metrics-server", "True", "Ready")), append(installed,
			Check{Kind: "Issuer", Name: "kube-system/" + addon, OK: true, Message: "ready"},
			Check{Kind: "Certificate", Name: cert, OK: true, Message: "ready"})},
	} {
		t.Run(name, func(t *testing.T) {
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
				crdResource: "CustomResourceDefinitionList", issuerResource: "IssuerList", certificateResource: "CertificateList",
			}, tc.objs...)
			a := &attempt{v: &Validator{Dynamic: dyn}, ctx: context.Background()}
			assert.Equal(t, tc.want, a.checkCertManager(tc.needs))
		})
	}
}

// The secure mode's APIService names the Certificate its CA comes from, and its failure says so.
func TestCheckAPIServiceCAFrom(t *testing.T) {
	svc := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]interface{}{"name": "v1beta1.metrics.k8s.io", "annotations": map[string]interface{}{InjectCAFromAnnotation: "kube-system/metrics-server"}},
		"status": map[string]interface{}{"conditions": []interface{}{
			map[string]interface{}{"type": "Available", "status": "False", "reason": "FailedDiscoveryCheck", "message": "x509: certificate signed by unknown authority"},
		}},
	}}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{apiServiceResource: "APIServiceList"}, svc)
	a := &attempt{v: &Validator{Dynamic: dyn}, ctx: context.Background()}
	c, caFrom := a.checkAPIService("v1beta1.metrics.k8s.io")
	assert.Equal(t, "kube-system/metrics-server", caFrom)
	assert.Equal(t, "not available: FailedDiscoveryCheck x509: certificate signed by unknown authority (its CA comes from cert-manager's Certificate kube-system/metrics-server)", c.Message)
}

// needsPKI in the channel makes the addon's Issuer expected.
func TestReadExpectedPKI(t *testing.T) {
	mem := &vfs.MemFS{}
	storeChannel(t, mem, api.AddonSpec{Name: "metrics-server.addons.k8s.io", ID: "k8s-1.11", Manifest: "metrics-server.addons.k8s.io/k8s-1.11.yaml", ManifestHash: hash(6), NeedsPKI: true})
	e, err := ReadExpected(cluster(), vfs.NewContext(mem))
	require.NoError(t, err)
	assert.Equal(t, []string{"metrics-server.addons.k8s.io"}, e.PKI)
}
