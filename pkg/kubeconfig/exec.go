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

package kubeconfig

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/util/pkg/procgroup"
)

// maxExecOutput bounds what an exec plugin may print: its answer is one ExecCredential document.
const maxExecOutput = 1 << 20

// tokenExpiryMargin renews a token this long before it expires, so none expires mid-request.
const tokenExpiryMargin = 10 * time.Second

// boundExec runs the kubeconfig's exec plugin itself instead of client-go, which reads the
// plugin's output without bound and waits for it without deadline or regard for the request's.
// The protocol is client-go's (client.authentication.k8s.io ExecCredential, v1 and v1beta1): the
// plugin runs when a request needs a credential, bounded by that request's deadline (the command's
// --timeout and --request-timeout), in its own process group killed whole, its output capped. Its
// answer is a token, put on each request, or a client certificate and key, presented in the TLS
// handshake (Teleport's tsh, for one, answers with a certificate); either is kept until it expires
// or the server refuses it. env is the command's environment, the plugin's own besides the
// kubeconfig's env entries.
func boundExec(config *rest.Config, env map[string]string) error {
	ex := config.ExecProvider
	if ex == nil || !procgroup.Supported {
		return nil
	}
	config.ExecProvider = nil
	p := &execPlugin{config: ex, env: env, server: config.Host, caData: config.CAData, turn: make(chan struct{}, 1)}
	// A certificate is chosen per handshake, which only the transport's TLS settings can do; with a
	// transport of our own, client-go takes no TLS settings beside it, so they move into it whole.
	tlsConfig, err := rest.TLSConfigFor(config)
	if err != nil {
		return fmt.Errorf("TLS settings of the kubeconfig: %w", err)
	}
	if tlsConfig == nil {
		tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	p.kubeconfigCert = kubeconfigCertificate(tlsConfig)
	tlsConfig.Certificates, tlsConfig.GetClientCertificate = nil, p.clientCertificate
	transport := utilnet.SetTransportDefaults(&http.Transport{
		Proxy:               config.Proxy,
		TLSClientConfig:     tlsConfig,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 25,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	})
	p.closeIdle = transport.CloseIdleConnections
	config.TLSClientConfig = rest.TLSClientConfig{}
	config.Proxy = nil
	config.Transport = transport
	config.Wrap(func(next http.RoundTripper) http.RoundTripper { return &execAuth{plugin: p, next: next} })
	return nil
}

// kubeconfigCertificate is the kubeconfig's own client certificate, if it has one: presented when
// the plugin answers with a token, as client-go does.
func kubeconfigCertificate(c *tls.Config) func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	switch {
	case c.GetClientCertificate != nil:
		return c.GetClientCertificate
	case len(c.Certificates) > 0:
		cert := c.Certificates[0]
		return func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	}
	return nil
}

// credential is what the plugin answered: a token or a client certificate.
type credential struct {
	token   string
	cert    *tls.Certificate
	expires time.Time
}

func (c *credential) fresh() bool {
	return c != nil && (c.expires.IsZero() || time.Until(c.expires) > tokenExpiryMargin)
}

type execPlugin struct {
	config         *clientcmdapi.ExecConfig
	env            map[string]string
	server         string
	caData         []byte
	kubeconfigCert func(*tls.CertificateRequestInfo) (*tls.Certificate, error)
	closeIdle      func()

	// turn lets one caller run the plugin while the others wait, each by its own deadline.
	turn    chan struct{}
	current *credential
}

func (p *execPlugin) name() string { return "kubeconfig exec plugin " + p.config.Command }

// credential is the plugin's current answer, asking the plugin when there is none or it expired.
func (p *execPlugin) credential(ctx context.Context) (*credential, error) {
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the %s: %w", p.name(), ctx.Err())
	}
	defer func() { <-p.turn }()
	if p.current.fresh() {
		return p.current, nil
	}
	c, err := p.run(ctx)
	if err != nil {
		return nil, err
	}
	if p.current != nil && p.current.cert != nil && p.closeIdle != nil {
		// Connections made with the old certificate would go on using it.
		p.closeIdle()
	}
	p.current = c
	return c, nil
}

// clientCertificate answers the server's request for a certificate in a handshake, which runs
// under the request's context and so its deadline.
func (p *execPlugin) clientCertificate(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
	c, err := p.credential(info.Context())
	if err != nil {
		return nil, err
	}
	if c.cert != nil {
		return c.cert, nil
	}
	if p.kubeconfigCert != nil {
		return p.kubeconfigCert(info)
	}
	return &tls.Certificate{}, nil // none: the server may still take the token
}

// forget drops a credential the server refused, so the next request asks the plugin again.
func (p *execPlugin) forget(c *credential) {
	p.turn <- struct{}{}
	if p.current == c {
		p.current = nil
		if c.cert != nil && p.closeIdle != nil {
			p.closeIdle()
		}
	}
	<-p.turn
}

func (p *execPlugin) run(ctx context.Context) (*credential, error) {
	if p.config.InteractiveMode == clientcmdapi.AlwaysExecInteractiveMode {
		return nil, fmt.Errorf("the %s needs a terminal (interactiveMode: Always); kops runs it without one", p.name())
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
		defer cancel()
	}
	info, err := p.execInfo()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, p.config.Command, p.config.Args...)
	cmd.Env = append(environ(p.env), "KUBERNETES_EXEC_INFO="+info)
	for _, e := range p.config.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Stderr = os.Stderr // the plugin's messages are the user's to read
	out, err := procgroup.Run(ctx, cmd, maxExecOutput)
	if err != nil {
		return nil, fmt.Errorf("the %s %w", p.name(), err)
	}
	return p.parse(out)
}

// parse reads the plugin's ExecCredential: a token, or a PEM certificate with its key.
func (p *execPlugin) parse(out []byte) (*credential, error) {
	var cred struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Status     *struct {
			Token                 string       `json:"token"`
			ExpirationTimestamp   *metav1.Time `json:"expirationTimestamp"`
			ClientCertificateData string       `json:"clientCertificateData"`
			ClientKeyData         string       `json:"clientKeyData"`
		} `json:"status"`
	}
	if err := json.Unmarshal(out, &cred); err != nil {
		return nil, fmt.Errorf("the %s printed no ExecCredential: %w", p.name(), err)
	}
	if cred.Kind != "ExecCredential" || cred.APIVersion != p.config.APIVersion {
		return nil, fmt.Errorf("the %s printed a %s %s, not the ExecCredential %s the kubeconfig names", p.name(), cred.APIVersion, cred.Kind, p.config.APIVersion)
	}
	st := cred.Status
	if st == nil {
		return nil, errors.New("the " + p.name() + " answered with no status: neither a token nor a client certificate")
	}
	c := &credential{token: st.Token}
	if st.ExpirationTimestamp != nil {
		c.expires = st.ExpirationTimestamp.Time
	}
	switch certData, keyData := st.ClientCertificateData != "", st.ClientKeyData != ""; {
	case certData != keyData:
		return nil, fmt.Errorf("the %s answered with a client certificate but no key, or a key but no certificate; both are needed", p.name())
	case certData:
		cert, err := tls.X509KeyPair([]byte(st.ClientCertificateData), []byte(st.ClientKeyData))
		if err != nil {
			return nil, fmt.Errorf("the %s answered with a client certificate and key that do not make a pair: %w", p.name(), err)
		}
		c.cert = &cert
	case c.token == "":
		return nil, errors.New("the " + p.name() + " answered with neither a token nor a client certificate")
	}
	return c, nil
}

// execInfo is KUBERNETES_EXEC_INFO: not interactive, and the cluster when the kubeconfig asks.
func (p *execPlugin) execInfo() (string, error) {
	spec := map[string]any{"interactive": false}
	if p.config.ProvideClusterInfo {
		spec["cluster"] = map[string]any{"server": p.server, "certificate-authority-data": base64.StdEncoding.EncodeToString(p.caData)}
	}
	data, err := json.Marshal(map[string]any{"apiVersion": p.config.APIVersion, "kind": "ExecCredential", "spec": spec})
	return string(data), err
}

func environ(env map[string]string) []string {
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// execAuth puts the plugin's token on each request (a certificate goes in the handshake), and
// forgets a credential the server refuses.
type execAuth struct {
	plugin *execPlugin
	next   http.RoundTripper
}

func (a *execAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.TrimSpace(req.Header.Get("Authorization")) != "" {
		return a.next.RoundTrip(req)
	}
	c, err := a.plugin.credential(req.Context())
	if err != nil {
		return nil, err
	}
	if c.token != "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := a.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		a.plugin.forget(c)
	}
	return resp, err
}
