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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"k8s.io/kops/util/pkg/vfs"
)

// Client-side limits for a command line tool (channels apply, kops validate cluster). client-go's
// defaults (5 requests/s, bursts of 10) are meant for controllers sharing a server, and a cold
// apply would spend most of its time waiting on the limiter (docs/performance.md). One apply sends
// one request per object, one per record, a few for discovery and the CRD waits: the burst covers
// a whole channel without any wait, and the rate beyond it is the one kubectl allows itself for
// discovery. The API server's priority and fairness still protects the server; this limit only
// stops a runaway client.
const (
	DefaultQPS   = 50
	DefaultBurst = 300
	// DefaultRequestTimeout bounds one request, so that a server that accepts a connection and
	// never answers fails the command instead of hanging it.
	DefaultRequestTimeout = 30 * time.Second
)

// RESTConfig finds the cluster: the explicit kubeconfig file, else KUBECONFIG (a list of files),
// else ~/.kube/config, else the in-cluster service account; in a kubeconfig, its current context.
// env is the process environment, read once by the caller. Every kubeconfig file is read through
// the one bounded read (vfs.ReadLocalFile), so a FIFO or /dev/zero given as a kubeconfig fails at
// once.
func RESTConfig(explicit string, env map[string]string) (*rest.Config, error) {
	config, _, err := RESTConfigFor(explicit, env, "")
	return config, err
}

// RESTConfigFor is RESTConfig preferring the kubeconfig's context named preferred, as kops names
// a cluster's context after the cluster: when the kubeconfig has no such context, the current one
// is used and the returned warning says so.
//
// client-go's clientcmd does the finding; only the reading is ours (boundedLoader): its loading
// rules read every file whole and offer no hook to bound that, and a pipe (--kubeconfig <(...))
// can be read only once, so a size check in front of them is not possible either.
func RESTConfigFor(explicit string, env map[string]string, preferred string) (*rest.Config, string, error) {
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: explicit}
	switch {
	case explicit != "":
	case env["KUBECONFIG"] != "":
		rules.Precedence = filepath.SplitList(env["KUBECONFIG"])
	case env["HOME"] != "" && fileExists(filepath.Join(env["HOME"], ".kube", "config")):
		rules.Precedence = []string{filepath.Join(env["HOME"], ".kube", "config")}
	default:
		config, err := rest.InClusterConfig()
		if err != nil {
			return nil, "", fmt.Errorf("no kubeconfig: --kubeconfig is not given, KUBECONFIG is not set and ~/.kube/config does not exist (nor is this a pod in a cluster)")
		}
		return config, "", nil
	}
	names := strings.Join(rules.GetLoadingPrecedence(), string(filepath.ListSeparator))
	loader := &boundedLoader{ClientConfigLoadingRules: rules}
	merged, err := loader.Load()
	if err != nil {
		return nil, "", err
	}
	context, warning, err := chooseContext(merged, names, preferred)
	if err != nil {
		return nil, "", err
	}
	// client-go reports a context without a cluster as an empty configuration ("try setting
	// KUBERNETES_MASTER") and then, in a pod, would fall back to the in-cluster account: say what is
	// missing instead.
	if cluster := merged.Contexts[context].Cluster; merged.Clusters[cluster] == nil || merged.Clusters[cluster].Server == "" {
		return nil, "", fmt.Errorf("kubeconfig %s: context %q names cluster %q, which has no server there", names, context, cluster)
	}
	if err := inlineFiles(merged, context); err != nil {
		return nil, "", err
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: context}
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(loader, overrides).ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s, context %q: %w", names, context, err)
	}
	return config, warning, nil
}

// boundedLoader is client-go's loading rules with the reading replaced by the bounded one (see
// RESTConfigFor); it loads once, so that the files RESTConfigFor inlined stay inlined when the
// deferred client config asks for the configuration again.
type boundedLoader struct {
	*clientcmd.ClientConfigLoadingRules
	loaded *clientcmdapi.Config
}

func (l *boundedLoader) Load() (*clientcmdapi.Config, error) {
	if l.loaded == nil {
		config, err := load(l.GetLoadingPrecedence(), l.IsExplicitFile())
		if err != nil {
			return nil, err
		}
		l.loaded = config
	}
	return l.loaded, nil
}

// chooseContext returns the context to use: the preferred one when the kubeconfig has it, else
// the current one. It says plainly when there is no context to use (client-go would say "no
// configuration has been provided, try setting KUBERNETES_MASTER").
func chooseContext(config *clientcmdapi.Config, names, preferred string) (string, string, error) {
	if preferred != "" && config.Contexts[preferred] != nil {
		return preferred, "", nil
	}
	contexts := make([]string, 0, len(config.Contexts))
	for name := range config.Contexts {
		contexts = append(contexts, name)
	}
	sort.Strings(contexts)
	switch {
	case len(contexts) == 0:
		return "", "", fmt.Errorf("kubeconfig %s has no contexts: it names no cluster to talk to", names)
	case config.CurrentContext == "":
		return "", "", fmt.Errorf("kubeconfig %s has no current context (its contexts: %s): choose one with 'kubectl config use-context NAME'",
			names, strings.Join(contexts, ", "))
	case config.Contexts[config.CurrentContext] == nil:
		return "", "", fmt.Errorf("kubeconfig %s: its current context %q is not one of its contexts (%s)",
			names, config.CurrentContext, strings.Join(contexts, ", "))
	case preferred != "":
		return config.CurrentContext, fmt.Sprintf("the kubeconfig has no context named %q, the cluster's name; using its current context %q", preferred, config.CurrentContext), nil
	}
	return config.CurrentContext, "", nil
}

// load reads and merges kubeconfig files with the semantics of ClientConfigLoadingRules.Load: the
// first file to name a cluster, user or context wins, and so does the first current-context;
// relative paths in a file are relative to it (clientcmd.ResolveLocalPaths); files of a KUBECONFIG
// list that do not exist are skipped, an explicit one is required. Each file is parsed by
// clientcmd.Load from the bytes the bounded read returned.
func load(files []string, explicit bool) (*clientcmdapi.Config, error) {
	merged := clientcmdapi.NewConfig()
	found := 0
	for _, name := range files {
		if name == "" {
			continue
		}
		data, err := vfs.ReadLocalFile(name, true)
		if errors.Is(err, fs.ErrNotExist) {
			if !explicit {
				continue
			}
			return nil, fmt.Errorf("kubeconfig %s does not exist", name)
		}
		if err != nil {
			return nil, fmt.Errorf("reading kubeconfig: %w", err)
		}
		found++
		config, err := clientcmd.Load(data)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: %w", name, err)
		}
		abs, err := filepath.Abs(name)
		if err != nil {
			return nil, err
		}
		for _, c := range config.Clusters {
			c.LocationOfOrigin = abs
		}
		for _, a := range config.AuthInfos {
			a.LocationOfOrigin = abs
		}
		for _, c := range config.Contexts {
			c.LocationOfOrigin = abs
		}
		if err := clientcmd.ResolveLocalPaths(config); err != nil {
			return nil, fmt.Errorf("kubeconfig %s: %w", name, err)
		}
		addMissing(merged.Clusters, config.Clusters)
		addMissing(merged.AuthInfos, config.AuthInfos)
		addMissing(merged.Contexts, config.Contexts)
		addMissing(merged.Extensions, config.Extensions)
		if merged.CurrentContext == "" {
			merged.CurrentContext = config.CurrentContext
		}
	}
	if found == 0 {
		return nil, fmt.Errorf("no kubeconfig: none of KUBECONFIG's files exists (%s)", strings.Join(files, string(filepath.ListSeparator)))
	}
	return merged, nil
}

// inlineFiles reads the files the chosen context names (certificate authority, client
// certificate and key, token file) through the same bounded read, and puts their contents in their
// place: client-go would read them whole, and /dev/zero as a token file would grow without bound.
// Other contexts are left as they are, as kubectl leaves them unread. A command's run is short, so
// a token file's later rotation does not matter here.
func inlineFiles(config *clientcmdapi.Config, context string) error {
	current := config.Contexts[context]
	if current == nil {
		return nil // chooseContext chose one that exists
	}
	read := func(what, name string) ([]byte, error) {
		data, err := vfs.ReadLocalFile(name, false)
		if err != nil {
			return nil, fmt.Errorf("reading the %s: %w", what, err)
		}
		return data, nil
	}
	if c := config.Clusters[current.Cluster]; c != nil && c.CertificateAuthority != "" {
		data, err := read("certificate-authority", c.CertificateAuthority)
		if err != nil {
			return err
		}
		c.CertificateAuthorityData, c.CertificateAuthority = data, ""
	}
	if a := config.AuthInfos[current.AuthInfo]; a != nil {
		for _, f := range []struct {
			what string
			name *string
			data *[]byte
		}{{"client-certificate", &a.ClientCertificate, &a.ClientCertificateData}, {"client-key", &a.ClientKey, &a.ClientKeyData}} {
			if *f.name == "" {
				continue
			}
			data, err := read(f.what, *f.name)
			if err != nil {
				return err
			}
			*f.data, *f.name = data, ""
		}
		if a.TokenFile != "" {
			data, err := read("tokenFile", a.TokenFile)
			if err != nil {
				return err
			}
			a.Token, a.TokenFile = strings.TrimSpace(string(data)), ""
		}
	}
	return nil
}

// addMissing copies the entries of from that into does not have yet.
func addMissing[V any](into, from map[string]V) {
	for k, v := range from {
		if _, ok := into[k]; !ok {
			into[k] = v
		}
	}
}

// ForCLI returns a copy of config with the tool's rate limits and a request timeout (the default
// when timeout is zero). Limits already set in config are raised, never lowered.
func ForCLI(config *rest.Config, timeout time.Duration) *rest.Config {
	c := rest.CopyConfig(config)
	if c.QPS < DefaultQPS {
		c.QPS = DefaultQPS
	}
	if c.Burst < DefaultBurst {
		c.Burst = DefaultBurst
	}
	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	c.Timeout = timeout
	return c
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
