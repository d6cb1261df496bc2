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

package apply

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The CA is what kops's pki issues for type "ca" (IssueCertRequest Type "ca", CN and alternate
// name the addon): RSA 2048, self-signed, for certificate and CRL signing, valid ten years from two
// days back; the key PKCS#1 PEM. Each call makes a new key and serial.
func TestNewCA(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	certPEM, keyPEM, err := newCA("metrics-server.addons.k8s.io", now)
	require.NoError(t, err)
	block, rest := pem.Decode(certPEM)
	require.NotNil(t, block)
	assert.Empty(t, rest)
	assert.Equal(t, "CERTIFICATE", block.Type)
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	assert.Equal(t, "metrics-server.addons.k8s.io", cert.Subject.CommonName)
	assert.Equal(t, cert.Subject.String(), cert.Issuer.String())
	assert.Equal(t, []string{"metrics-server.addons.k8s.io"}, cert.DNSNames)
	assert.True(t, cert.IsCA)
	assert.True(t, cert.BasicConstraintsValid)
	assert.Equal(t, x509.KeyUsageCertSign|x509.KeyUsageCRLSign, cert.KeyUsage)
	assert.Empty(t, cert.ExtKeyUsage)
	assert.Equal(t, now.Add(-48*time.Hour), cert.NotBefore)
	assert.Equal(t, now.Add(10*365*24*time.Hour), cert.NotAfter)
	require.NoError(t, cert.CheckSignatureFrom(cert))

	keyBlock, _ := pem.Decode(keyPEM)
	require.NotNil(t, keyBlock)
	assert.Equal(t, "RSA PRIVATE KEY", keyBlock.Type)
	key, err := x509.ParsePKCS1PrivateKey(keyBlock.Bytes)
	require.NoError(t, err)
	assert.Equal(t, 2048, key.N.BitLen())
	assert.True(t, key.PublicKey.Equal(cert.PublicKey))

	other, _, err := newCA("metrics-server.addons.k8s.io", now)
	require.NoError(t, err)
	otherBlock, _ := pem.Decode(other)
	otherCert, err := x509.ParseCertificate(otherBlock.Bytes)
	require.NoError(t, err)
	assert.NotEqual(t, cert.SerialNumber, otherCert.SerialNumber)
	assert.False(t, key.PublicKey.Equal(otherCert.PublicKey), "a new key each time")
}

// The Secret and Issuer are kops's channels' objects: a kubernetes.io/tls Secret <addon>-ca and an
// Issuer <addon> with spec.ca.secretName, both in kube-system, without labels (no prune or
// retirement ever lists them).
func TestPKIObjects(t *testing.T) {
	secret, err := caSecret("a.example.com")
	require.NoError(t, err)
	assert.Equal(t, "a.example.com-ca", secret.GetName())
	assert.Equal(t, "kube-system", secret.GetNamespace())
	assert.Empty(t, secret.GetLabels())
	assert.Equal(t, "kubernetes.io/tls", secret.Object["type"])
	data := secret.Object["data"].(map[string]interface{})
	for _, k := range []string{"tls.crt", "tls.key"} {
		_, err := base64.StdEncoding.DecodeString(data[k].(string))
		assert.NoError(t, err, k)
	}
	issuer := caIssuer("a.example.com")
	assert.Equal(t, "cert-manager.io/v1", issuer.GetAPIVersion())
	assert.Equal(t, "Issuer", issuer.GetKind())
	assert.Equal(t, "a.example.com", issuer.GetName())
	assert.Equal(t, "kube-system", issuer.GetNamespace())
	assert.Empty(t, issuer.GetLabels())
	assert.Equal(t, map[string]interface{}{"ca": map[string]interface{}{"secretName": "a.example.com-ca"}}, issuer.Object["spec"])
}
