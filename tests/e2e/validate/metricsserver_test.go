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

package validate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// With spec.metricsServer.enabled, validation checks what metrics-server runs: its Deployment
// available and its APIService Available, each failure named, exit code 2 until both are.
func TestValidateMetricsServer(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	c := newCluster(t, bin, "metrics.k8s.local", "", "spec.metricsServer.enabled=true,spec.metricsServer.insecure=true")
	validate := func(args ...string) kopsenv.Run {
		return c.run(t, "kops", append([]string{"validate", "cluster", c.name}, args...)...)
	}
	// CoreDNS is left as channels applied it (other tests of the package check it from there): only
	// metrics-server's checks are looked at.
	metricsServer := func(r kopsenv.Run) map[string]string {
		t.Helper()
		var got result
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got), r.Stderr)
		out := map[string]string{}
		for k, v := range got.failing() {
			if !strings.Contains(k, "coredns") && !strings.Contains(k, "kube-dns") {
				out[k] = v
			}
		}
		return out
	}

	// No metrics-server runs here: the API server's aggregator itself reports the APIService
	// unavailable (no endpoints behind its Service), with its reason, which validation names.
	r := validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	failing := metricsServer(r)
	assert.Equal(t, "not available: generation 1 not yet observed by its controller", failing["Deployment kube-system/metrics-server"])
	assert.Regexp(t, `^not available: (no Available condition yet|\w+ .+)$`, failing["APIService v1beta1.metrics.k8s.io"])
	assert.Len(t, failing, 2)
	r = validate()
	assert.Contains(t, r.Stderr, "  Deployment kube-system/metrics-server: not available: generation 1 not yet observed by its controller\n")
	assert.Contains(t, r.Stderr, "  APIService v1beta1.metrics.k8s.io: not available: ")

	setDeploymentAvailable(t, "kube-system", "metrics-server", false)
	r = validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	assert.Contains(t, metricsServer(r)["Deployment kube-system/metrics-server"], "not available: MinimumReplicasUnavailable")

	// With its Deployment available, the APIService alone keeps the cluster unhealthy.
	setDeploymentAvailable(t, "kube-system", "metrics-server", true)
	r = validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	failing = metricsServer(r)
	require.Len(t, failing, 1, "%v", failing)
	assert.Contains(t, failing, "APIService v1beta1.metrics.k8s.io")
	assert.Regexp(t, `Deployment +kube-system/metrics-server +OK +available, 2/2 replicas ready`, validate().Stdout)
}

// In kops's secure mode (insecure unset, cert-manager enabled) validation also checks what
// cert-manager does for metrics-server: its CRDs installed (this build does not deploy it), the
// addon's Issuer and the APIService's Certificate Ready, naming each that is not. No cert-manager
// runs here: minimal CRDs stand for it, and the test writes the status it would.
func TestValidateSecureMetricsServer(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	kopsenv.InstallCertManagerCRDs(t, env)
	c := newCluster(t, bin, "secure-metrics.k8s.local", "", "spec.certManager.enabled=true", "spec.metricsServer.enabled=true")
	const issuer, certificate = "Issuer kube-system/metrics-server.addons.k8s.io", "Certificate kube-system/metrics-server"
	failing := func() map[string]string {
		t.Helper()
		r := c.run(t, "kops", "validate", "cluster", c.name, "-o", "json")
		var got result
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got), r.Stderr)
		assert.Equal(t, exitUnhealthy, r.Code, "metrics-server's APIService is never available here")
		return got.failing()
	}

	f := failing()
	assert.Equal(t, "not ready: cert-manager has reported no Ready condition (is cert-manager running?)", f[issuer])
	assert.Equal(t, "not ready: cert-manager has reported no Ready condition (is cert-manager running?)", f[certificate])
	assert.Contains(t, f["APIService v1beta1.metrics.k8s.io"], "(its CA comes from cert-manager's Certificate kube-system/metrics-server)")

	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	issuers := dyn.Resource(schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "issuers"}).Namespace("kube-system")
	certificates := dyn.Resource(schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}).Namespace("kube-system")
	for _, r := range []dynamic.ResourceInterface{issuers, certificates} {
		name := "metrics-server"
		if r == issuers {
			name = "metrics-server.addons.k8s.io"
		}
		setReady(t, r, name)
	}
	f = failing()
	assert.NotContains(t, f, issuer)
	assert.NotContains(t, f, certificate)

	require.NoError(t, certificates.Delete(context.Background(), "metrics-server", metav1.DeleteOptions{}))
	assert.Equal(t, "missing: the addon's manifest holds it: run channels apply", failing()[certificate])

	// cert-manager gone: validation names it, once per CRD, and checks nothing of it further.
	for _, crd := range kopsenv.CertManagerCRDs {
		require.NoError(t, dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).
			Delete(context.Background(), crd, metav1.DeleteOptions{}))
	}
	require.Eventually(t, func() bool {
		_, has := failing()["CustomResourceDefinition certificates.cert-manager.io"]
		return has
	}, time.Minute, 100*time.Millisecond)
	f = failing()
	for _, crd := range kopsenv.CertManagerCRDs {
		assert.Contains(t, f["CustomResourceDefinition "+crd], "missing: cert-manager is not installed, and metrics-server.addons.k8s.io (needsPKI), APIService v1beta1.metrics.k8s.io need it: install cert-manager on the cluster (this build does not deploy it)")
	}
	assert.NotContains(t, f, issuer)
	assert.NotContains(t, f, certificate)
}

// setReady plays cert-manager: Ready True on the object's status.
func setReady(t *testing.T, r dynamic.ResourceInterface, name string) {
	t.Helper()
	u, err := r.Get(context.Background(), name, metav1.GetOptions{})
	require.NoError(t, err)
	u.Object["status"] = map[string]interface{}{"conditions": []interface{}{
		map[string]interface{}{"type": "Ready", "status": "True", "reason": "Ready"},
	}}
	_, err = r.UpdateStatus(context.Background(), u, metav1.UpdateOptions{})
	require.NoError(t, err)
}
