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

package nodecluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The cluster's certificates: one CA signs everything (the API server's and kubelet's serving
// certificates, and a client certificate per identity). ECDSA P-256 keys: cheap to make on every
// start, and accepted everywhere, the service account tokens included (ES256).

type keyPair struct {
	cert    *x509.Certificate
	certPEM []byte
	key     *ecdsa.PrivateKey
	keyPEM  []byte
}

func newCA(name string) (*keyPair, error) {
	return sign(nil, &x509.Certificate{
		Subject:               pkix.Name{CommonName: name},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	})
}

// clientCert is a client certificate for user in groups, as the API server reads them (CN and O).
func (ca *keyPair) clientCert(user string, groups ...string) (*keyPair, error) {
	return sign(ca, &x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
}

// servingCert is a serving certificate for the names and addresses.
func (ca *keyPair) servingCert(cn string, dnsNames []string, ips []net.IP) (*keyPair, error) {
	return sign(ca, &x509.Certificate{
		Subject:     pkix.Name{CommonName: cn},
		DNSNames:    dnsNames,
		IPAddresses: ips,
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
}

// sign makes a key and a certificate from template, signed by ca (self-signed when ca is nil),
// valid from an hour ago (clock skew between the daemons cannot matter on one machine, but a
// certificate valid only from "now" is refused by a check a millisecond early) for a year.
func sign(ca *keyPair, template *x509.Certificate) (*keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	template.SerialNumber = serial
	template.NotBefore = time.Now().Add(-time.Hour)
	template.NotAfter = time.Now().Add(365 * 24 * time.Hour)
	parent, signer := template, key
	if ca != nil {
		parent, signer = ca.cert, ca.key
	}
	der, err := x509.CreateCertificate(rand.Reader, template, parent, &key.PublicKey, signer)
	if err != nil {
		return nil, fmt.Errorf("signing %q: %w", template.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &keyPair{
		cert:    cert,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key:     key,
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

// write stores the pair as dir/name.crt and dir/name.key and returns their paths.
func (p *keyPair) write(dir, name string) (certPath, keyPath string, err error) {
	certPath, keyPath = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certPath, p.certPEM, 0o644); err != nil {
		return "", "", err
	}
	return certPath, keyPath, os.WriteFile(keyPath, p.keyPEM, 0o600)
}

// serviceAccountKey writes a key pair for signing service account tokens: the private key and
// its public half, as the API server and controller-manager read them.
func serviceAccountKey(dir string) (privatePath, publicPath string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", "", err
	}
	privatePath, publicPath = filepath.Join(dir, "service-account.key"), filepath.Join(dir, "service-account.pub")
	if err := os.WriteFile(privatePath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return "", "", err
	}
	return privatePath, publicPath, os.WriteFile(publicPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644)
}
