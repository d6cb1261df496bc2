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
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// An addon with needsPKI gets what kops's channels gives it: a CA of its own, in Secret <addon>-ca
// of kube-system, and a cert-manager Issuer <addon> there that signs with it, from which the addon's
// Certificates are issued. Both are created once and never updated or deleted: kops's channels
// writes the same objects, and replacing a CA would invalidate every certificate it signed. The
// Issuer goes through the dynamic client, so cert-manager's Go module is not linked.

// PKINamespace holds every addon's CA and Issuer, as in kops.
const PKINamespace = "kube-system"

var (
	issuerKind      = schema.GroupKind{Group: "cert-manager.io", Kind: "Issuer"}
	issuerResource  = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "issuers"}
	secretResource  = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	certManagerCRDs = []string{"issuers.cert-manager.io", "certificates.cert-manager.io"}
)

// The CA as kops's pki issues type "ca".
const (
	caValidity   = 10 * 365 * 24 * time.Hour
	caBackdate   = 48 * time.Hour
	caRSAKeyBits = 2048
	caSerialBits = 128
	caKeyUsage   = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
)

// CASecretName and IssuerName are kops's names for an addon's PKI.
func CASecretName(addon string) string { return addon + "-ca" }
func IssuerName(addon string) string   { return addon }

// pkiPlan is what an addon's PKI lacks; nil when it needs none or has all.
type pkiPlan struct {
	addon          string
	secret, issuer bool
}

// String names what is created, for the report.
func (p *pkiPlan) String() string {
	var missing []string
	if p.secret {
		missing = append(missing, "its CA, Secret "+PKINamespace+"/"+CASecretName(p.addon))
	}
	if p.issuer {
		missing = append(missing, "Issuer "+PKINamespace+"/"+IssuerName(p.addon))
	}
	return strings.Join(missing, " and ")
}

// planPKI reads what the addon's PKI lacks. cert-manager's CRDs must be installed, or be defined by
// an addon of this channel (then nothing can be read yet and both are created after it).
func (a *Applier) planPKI(ctx context.Context, addon *Addon, provider map[schema.GroupKind]string) (*pkiPlan, error) {
	if !addon.Spec.NeedsPKI {
		return nil, nil
	}
	if _, inChannel := provider[issuerKind]; inChannel {
		return &pkiPlan{addon: addon.Spec.Name, secret: true, issuer: true}, nil
	}
	for _, crd := range certManagerCRDs {
		_, err := a.dynamic.Resource(crdResource).Get(ctx, crd, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil, fmt.Errorf("needsPKI: cert-manager's CRD %s is not installed: the addon's certificates are issued by cert-manager, which must run on the cluster (kops deploys it for spec.certManager; this build does not): install cert-manager, then apply again", crd)
		case err != nil:
			return nil, fmt.Errorf("needsPKI: reading CRD %s: %w", crd, err)
		}
	}
	p := &pkiPlan{addon: addon.Spec.Name}
	var err error
	if p.secret, err = a.missing(ctx, secretResource, CASecretName(addon.Spec.Name)); err != nil {
		return nil, err
	}
	if p.issuer, err = a.missing(ctx, issuerResource, IssuerName(addon.Spec.Name)); err != nil {
		return nil, err
	}
	if !p.secret && !p.issuer {
		return nil, nil
	}
	return p, nil
}

func (a *Applier) missing(ctx context.Context, gvr schema.GroupVersionResource, name string) (bool, error) {
	_, err := a.dynamic.Resource(gvr).Namespace(PKINamespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("needsPKI: reading %s %s/%s: %w", gvr.Resource, PKINamespace, name, err)
	}
	return false, nil
}

// installPKI creates what p lacks. An object that exists by then (another run, kops's channels) is
// left as it is: the CA it holds is the one in use.
func (a *Applier) installPKI(ctx context.Context, addon string, p *pkiPlan) error {
	if p == nil {
		return nil
	}
	if p.secret {
		secret, err := caSecret(addon)
		if err != nil {
			return fmt.Errorf("needsPKI: %w", err)
		}
		if err := a.createOnce(ctx, secretResource, secret); err != nil {
			return err
		}
	}
	if p.issuer {
		if err := a.createOnce(ctx, issuerResource, caIssuer(addon)); err != nil {
			return err
		}
	}
	return nil
}

func (a *Applier) createOnce(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	_, err := a.dynamic.Resource(gvr).Namespace(PKINamespace).Create(ctx, obj, metav1.CreateOptions{FieldManager: a.opts.FieldManager})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		// The error names the object, never its data: a Secret's key is not printed.
		return fmt.Errorf("needsPKI: creating %s %s/%s: %w", obj.GetKind(), PKINamespace, obj.GetName(), err)
	}
	return nil
}

// caIssuer signs with the addon's CA, as kops's channels writes it.
func caIssuer(addon string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "cert-manager.io/v1",
		"kind":       "Issuer",
		"metadata":   map[string]interface{}{"name": IssuerName(addon), "namespace": PKINamespace},
		"spec":       map[string]interface{}{"ca": map[string]interface{}{"secretName": CASecretName(addon)}},
	}}
}

// caSecret holds a new CA for addon as kops's pki issues type "ca": RSA 2048, self-signed, CN and
// DNS name the addon's name, for signing certificates and CRLs only, valid ten years from two days
// ago (clocks differ). tls.key is PKCS#1, as kops writes RSA keys.
func caSecret(addon string) (*unstructured.Unstructured, error) {
	certPEM, keyPEM, err := newCA(addon, time.Now())
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "Secret",
		"metadata":   map[string]interface{}{"name": CASecretName(addon), "namespace": PKINamespace},
		"type":       "kubernetes.io/tls",
		"data": map[string]interface{}{
			"tls.crt": base64.StdEncoding.EncodeToString(certPEM),
			"tls.key": base64.StdEncoding.EncodeToString(keyPEM),
		},
	}}, nil
}

func newCA(name string, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := rsa.GenerateKey(rand.Reader, caRSAKeyBits)
	if err != nil {
		return nil, nil, fmt.Errorf("generating the CA key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), caSerialBits))
	if err != nil {
		return nil, nil, fmt.Errorf("generating the CA serial number: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: name},
		DNSNames:              []string{name},
		NotBefore:             now.Add(-caBackdate).UTC(),
		NotAfter:              now.Add(caValidity).UTC(),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              caKeyUsage,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("signing the CA certificate: %w", err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	return certPEM, keyPEM, nil
}
