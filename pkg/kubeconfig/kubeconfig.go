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

// Client-side limits for a CLI: client-go's defaults are meant for controllers sharing a server and
// would throttle a cold apply. The burst covers a whole channel; priority and fairness still protect
// the server, so this only stops a runaway client.
const (
	DefaultQPS   = 50
	DefaultBurst = 300
	// DefaultRequestTimeout stops a server that accepts and never answers from hanging the command.
	DefaultRequestTimeout = 30 * time.Second
)

// RESTConfig finds the cluster as kubectl does: explicit file, KUBECONFIG, ~/.kube/config, then
// in-cluster. Files are read through vfs.ReadLocalFile, so a FIFO or /dev/zero fails at once.
func RESTConfig(explicit string, env map[string]string) (*rest.Config, error) {
	config, _, err := RESTConfigFor(explicit, env, "")
	return config, err
}

// RESTConfigFor is RESTConfig preferring the context named preferred, warning when it falls back.
// clientcmd does the finding but reads files whole with no hook to bound them, so reading is ours.
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
	// Say what is missing rather than client-go's KUBERNETES_MASTER hint or in-cluster fallback.
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
	if err := boundExec(config, env); err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s, context %q: %w", names, context, err)
	}
	return config, warning, nil
}

// boundedLoader loads once, so files RESTConfigFor inlined stay inlined.
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

// chooseContext returns the preferred context if present, else the current one.
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

// load merges files as ClientConfigLoadingRules.Load does (first wins, relative paths resolved),
// skipping missing KUBECONFIG entries but requiring an explicit one.
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

// inlineFiles reads the chosen context's certificate, key and token files through the bounded read,
// since client-go would read /dev/zero without bound. Other contexts are left unread, as kubectl does.
func inlineFiles(config *clientcmdapi.Config, context string) error {
	current := config.Contexts[context]
	if current == nil {
		return nil
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

func addMissing[V any](into, from map[string]V) {
	for k, v := range from {
		if _, ok := into[k]; !ok {
			into[k] = v
		}
	}
}

// ForCLI returns a copy of config with the tool's rate limits (only ever raised) and a request timeout.
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
