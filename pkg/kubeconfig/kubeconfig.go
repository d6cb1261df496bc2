// Package kubeconfig finds the cluster a command line tool talks to, the way kubectl does, and
// sizes its client for a tool rather than a controller. It is shared by `channels` and
// `kops validate cluster`, so that both find the same cluster from the same flags and environment.
package kubeconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Client-side limits for a command line tool (channels apply, kops validate cluster). client-go's
// defaults (5 requests/s, bursts of 10) are meant for controllers sharing a server: they made a
// cold apply of the minimal channel take 1.2 s, nearly all of it waiting on the limiter. One apply
// sends one request per object, one per record, a few for discovery and the CRD waits: a burst of
// 300 covers a whole channel of a few hundred objects without any wait, and 50/s beyond it is the
// rate kubectl allows itself for discovery. The API server's priority and fairness still protects
// the server; this limit only stops a runaway client.
const (
	DefaultQPS   = 50
	DefaultBurst = 300
	// DefaultRequestTimeout bounds one request, so that a server that accepts a connection and
	// never answers fails the command instead of hanging it.
	DefaultRequestTimeout = 30 * time.Second
)

// RESTConfig finds the cluster: the explicit kubeconfig file, else KUBECONFIG (a list of files),
// else ~/.kube/config, else the in-cluster service account. env is the process environment, read
// once by the caller.
func RESTConfig(explicit string, env map[string]string) (*rest.Config, error) {
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
			return nil, fmt.Errorf("no kubeconfig (--kubeconfig, KUBECONFIG or ~/.kube/config) and not running in a cluster: %w", err)
		}
		return config, nil
	}
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig: %w", err)
	}
	return config, nil
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
