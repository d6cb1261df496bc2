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

package channels

import (
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

var issuers = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "issuers"}

// An addon with needsPKI gets what kops's channels gives it: Secret kube-system/<addon>-ca holding
// a CA of its own and a cert-manager Issuer <addon> signing with it, created once. Without
// cert-manager's CRDs the addon fails naming cert-manager and what to do, and the others still
// apply; the CA is never replaced, and a missing Issuer is created again.
func TestNeedsPKI(t *testing.T) {
	const ns, addon = "e2e-pki", "with-pki.example.com"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://channels/pki", mem)
	require.NoError(t, err)
	certificate := "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: e2e-pki\n  namespace: kube-system\n" +
		"  labels:\n    addon.kops.k8s.io/name: " + addon + "\nspec:\n  secretName: e2e-pki-tls\n  dnsNames: [e2e-pki.kube-system.svc]\n" +
		"  issuerRef:\n    name: " + addon + "\n    kind: Issuer\n"
	channel := api.NewAddons("bootstrap")
	for _, a := range []struct {
		name, manifest string
		pki            bool
	}{
		{"plain", configMap(ns, "plain", "plain"), false},
		{addon, configMap(ns, "with-pki", addon) + "---\n" + certificate, true},
	} {
		require.NoError(t, base.Join(a.name, "v1.yaml").WriteFile([]byte(a.manifest)))
		channel.Spec.Addons = append(channel.Spec.Addons, api.AddonSpec{Name: a.name, ID: "v1", Manifest: a.name + "/v1.yaml",
			ManifestHash: api.ManifestHash([]byte(a.manifest)), Namespace: ns, NeedsPKI: a.pki})
	}
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile(data))
	location := base.Join("bootstrap-channel.yaml").String()

	secrets := env.Clientset.CoreV1().Secrets("kube-system")
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	ctx := framework.Context(t)

	// No cert-manager: the addon fails by name, the other is applied, nothing of the PKI is made.
	run := kopsenv.Apply(t, env, location, mem, true)
	require.Error(t, run.Err)
	assert.Equal(t, map[string]apply.Outcome{"plain": apply.Applied, addon: apply.Failed}, run.Outcomes(), run.Output)
	assert.Contains(t, run.Err.Error(), addon+": needsPKI: cert-manager's CRD issuers.cert-manager.io is not installed")
	assert.Contains(t, run.Err.Error(), "install cert-manager, then apply again")
	_, err = secrets.Get(ctx, addon+"-ca", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "no CA without cert-manager: %v", err)

	kopsenv.InstallCertManagerCRDs(t, env)

	dry := kopsenv.Apply(t, env, location, mem, false)
	require.NoError(t, dry.Err, dry.Output)
	assert.Equal(t, apply.WouldApply, dry.Outcomes()[addon])
	assert.Contains(t, dry.Output, "needsPKI: created first: its CA, Secret kube-system/"+addon+"-ca and Issuer kube-system/"+addon)
	assert.Zero(t, dry.Requests.Mutating(), "without --yes nothing is created")

	first := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, first.Err, first.Output)
	assert.Equal(t, apply.Applied, first.Outcomes()[addon])
	secret, err := secrets.Get(ctx, addon+"-ca", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.SecretTypeTLS, secret.Type)
	ca := parseCA(t, secret)
	assert.Equal(t, addon, ca.Subject.CommonName)
	assert.Equal(t, []string{addon}, ca.DNSNames)
	assert.True(t, ca.IsCA && ca.BasicConstraintsValid)
	assert.Equal(t, x509.KeyUsageCertSign|x509.KeyUsageCRLSign, ca.KeyUsage)
	require.NoError(t, ca.CheckSignatureFrom(ca), "self-signed")
	issuer, err := dyn.Resource(issuers).Namespace("kube-system").Get(ctx, addon, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]interface{}{"ca": map[string]interface{}{"secretName": addon + "-ca"}}, issuer.Object["spec"])
	_, err = dyn.Resource(schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}).
		Namespace("kube-system").Get(ctx, "e2e-pki", metav1.GetOptions{})
	assert.NoError(t, err, "the addon's Certificate is applied")

	again := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, again.Err, again.Output)
	assert.Equal(t, apply.Unchanged, again.Outcomes()[addon])
	assert.Zero(t, again.Requests.Mutating(), "nothing is written again")

	// The Issuer lost: it is created again; the CA stays the one in use.
	require.NoError(t, dyn.Resource(issuers).Namespace("kube-system").Delete(ctx, addon, metav1.DeleteOptions{}))
	repaired := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, repaired.Err, repaired.Output)
	assert.Equal(t, apply.Applied, repaired.Outcomes()[addon])
	assert.Contains(t, repaired.Output, "needsPKI: missing, so created: Issuer kube-system/"+addon+"; its objects are as recorded")
	_, err = dyn.Resource(issuers).Namespace("kube-system").Get(ctx, addon, metav1.GetOptions{})
	assert.NoError(t, err)
	after, err := secrets.Get(ctx, addon+"-ca", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, secret.Data, after.Data, "the CA is never replaced")
	assert.Equal(t, secret.ResourceVersion, after.ResourceVersion)
}

// A CA Secret made before (by kops's channels) is kept as it is: only the Issuer is created.
func TestNeedsPKIKeepsAnExistingCA(t *testing.T) {
	const ns, addon = "e2e-pki-kept", "kept-pki.example.com"
	createNamespace(t, ns)
	kopsenv.InstallCertManagerCRDs(t, env)
	ctx := framework.Context(t)
	existing := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: addon + "-ca", Namespace: "kube-system"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"tls.crt": []byte("made by kops's channels"), "tls.key": []byte("its key")}}
	_, err := env.Clientset.CoreV1().Secrets("kube-system").Create(ctx, existing, metav1.CreateOptions{})
	require.NoError(t, err)

	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://channels/pki-kept", mem)
	require.NoError(t, err)
	manifest := configMap(ns, "kept", addon)
	require.NoError(t, base.Join(addon, "v1.yaml").WriteFile([]byte(manifest)))
	channel := api.NewAddons("bootstrap")
	channel.Spec.Addons = []api.AddonSpec{{Name: addon, ID: "v1", Manifest: addon + "/v1.yaml", ManifestHash: api.ManifestHash([]byte(manifest)), Namespace: ns, NeedsPKI: true}}
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile(data))

	run := kopsenv.Apply(t, env, base.Join("bootstrap-channel.yaml").String(), mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Contains(t, run.Output, "needsPKI: created first: Issuer kube-system/"+addon)
	got, err := env.Clientset.CoreV1().Secrets("kube-system").Get(ctx, addon+"-ca", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, existing.Data, got.Data)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	_, err = dyn.Resource(issuers).Namespace("kube-system").Get(ctx, addon, metav1.GetOptions{})
	assert.NoError(t, err)
}

func parseCA(t *testing.T, secret *corev1.Secret) *x509.Certificate {
	t.Helper()
	block, _ := pem.Decode(secret.Data["tls.crt"])
	require.NotNil(t, block, "tls.crt is PEM")
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	keyBlock, _ := pem.Decode(secret.Data["tls.key"])
	require.NotNil(t, keyBlock, "tls.key is PEM")
	assert.Equal(t, "RSA PRIVATE KEY", keyBlock.Type)
	key, err := x509.ParsePKCS1PrivateKey(keyBlock.Bytes)
	require.NoError(t, err)
	assert.Equal(t, 2048, key.N.BitLen())
	assert.True(t, key.PublicKey.Equal(cert.PublicKey), "tls.key is the certificate's key")
	return cert
}
