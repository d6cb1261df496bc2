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
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
// The plugin runs per request that needs a token, bounded by that request's deadline (the
// command's --timeout and --request-timeout), in its own process group killed whole, its output
// capped. Only tokens are taken: a plugin answering with a client certificate is refused, naming
// it. env is the command's environment, the plugin's own besides the kubeconfig's env entries.
func boundExec(config *rest.Config, env map[string]string) {
	ex := config.ExecProvider
	if ex == nil || !procgroup.Supported {
		return
	}
	config.ExecProvider = nil
	p := &execPlugin{config: ex, env: env, server: config.Host, caData: config.CAData, turn: make(chan struct{}, 1)}
	config.Wrap(func(next http.RoundTripper) http.RoundTripper { return &execAuth{plugin: p, next: next} })
}

type execPlugin struct {
	config *clientcmdapi.ExecConfig
	env    map[string]string
	server string
	caData []byte

	// turn lets one request run the plugin while the others wait, each by its own deadline.
	turn    chan struct{}
	token   string
	expires time.Time
}

func (p *execPlugin) name() string { return "kubeconfig exec plugin " + p.config.Command }

func (p *execPlugin) bearer(ctx context.Context) (string, error) {
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("waiting for the %s: %w", p.name(), ctx.Err())
	}
	defer func() { <-p.turn }()
	if p.token != "" && (p.expires.IsZero() || time.Until(p.expires) > tokenExpiryMargin) {
		return p.token, nil
	}
	token, expires, err := p.run(ctx)
	if err != nil {
		return "", err
	}
	p.token, p.expires = token, expires
	return token, nil
}

// forget drops a token the server refused, so the next request asks the plugin again.
func (p *execPlugin) forget(token string) {
	p.turn <- struct{}{}
	if p.token == token {
		p.token = ""
	}
	<-p.turn
}

func (p *execPlugin) run(ctx context.Context) (string, time.Time, error) {
	if p.config.InteractiveMode == clientcmdapi.AlwaysExecInteractiveMode {
		return "", time.Time{}, fmt.Errorf("the %s needs a terminal (interactiveMode: Always); kops runs it without one", p.name())
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
		defer cancel()
	}
	info, err := p.execInfo()
	if err != nil {
		return "", time.Time{}, err
	}
	cmd := exec.CommandContext(ctx, p.config.Command, p.config.Args...)
	cmd.Env = append(environ(p.env), "KUBERNETES_EXEC_INFO="+info)
	for _, e := range p.config.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Stderr = os.Stderr // the plugin's messages are the user's to read
	out, err := procgroup.Run(ctx, cmd, maxExecOutput)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("the %s %w", p.name(), err)
	}
	var cred struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Status     *struct {
			Token                 string       `json:"token"`
			ExpirationTimestamp   *metav1.Time `json:"expirationTimestamp"`
			ClientCertificateData string       `json:"clientCertificateData"`
		} `json:"status"`
	}
	if err := json.Unmarshal(out, &cred); err != nil {
		return "", time.Time{}, fmt.Errorf("the %s printed no ExecCredential: %w", p.name(), err)
	}
	switch {
	case cred.Kind != "ExecCredential" || cred.APIVersion != p.config.APIVersion:
		return "", time.Time{}, fmt.Errorf("the %s printed a %s %s, not the ExecCredential %s the kubeconfig names", p.name(), cred.APIVersion, cred.Kind, p.config.APIVersion)
	case cred.Status == nil || (cred.Status.Token == "" && cred.Status.ClientCertificateData != ""):
		return "", time.Time{}, fmt.Errorf("the %s answered with no token (a client certificate, or nothing); kops takes tokens only from exec plugins", p.name())
	case cred.Status.Token == "":
		return "", time.Time{}, errors.New("the " + p.name() + " answered with an empty token")
	}
	var expires time.Time
	if cred.Status.ExpirationTimestamp != nil {
		expires = cred.Status.ExpirationTimestamp.Time
	}
	return cred.Status.Token, expires, nil
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

// execAuth puts the plugin's token on each request, and forgets a token the server refuses.
type execAuth struct {
	plugin *execPlugin
	next   http.RoundTripper
}

func (a *execAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.TrimSpace(req.Header.Get("Authorization")) != "" {
		return a.next.RoundTrip(req)
	}
	token, err := a.plugin.bearer(req.Context())
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := a.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		a.plugin.forget(token)
	}
	return resp, err
}
