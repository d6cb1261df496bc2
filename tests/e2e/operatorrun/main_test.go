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

package operatorrun

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/coredns/controller"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

// statusCounter counts the operator's responses by HTTP status, so a test can say "no 403", and
// its server-side applies of managed objects (PATCH, not of a status or an event).
type statusCounter struct{ forbidden, total, applies atomic.Int64 }

func (c *statusCounter) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err == nil {
			c.total.Add(1)
			if resp.StatusCode == http.StatusForbidden {
				c.forbidden.Add(1)
			}
			if r.Method == http.MethodPatch && !strings.HasSuffix(r.URL.Path, "/status") && !strings.Contains(r.URL.Path, "/events/") {
				c.applies.Add(1)
			}
		}
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// operatorConfig is a config carrying a real token of the CoreDNS operator's ServiceAccount.
func operatorConfig(t testing.TB, counter *statusCounter) *rest.Config {
	return tokenConfig(t, coredns.Descriptor(), counter)
}

// tokenConfig is a config carrying a real token of the ServiceAccount of the operator d
// describes, issued by the API server's TokenRequest API, and nothing of the admin's credentials.
func tokenConfig(t testing.TB, d *operator.Descriptor, counter *statusCounter) *rest.Config {
	cfg, err := env.TokenConfig(framework.Context(t), d.Namespace, d.ServiceAccount)
	require.NoError(t, err)
	cfg.Wrap(counter.wrap)
	return cfg
}

// applyOperatorAddons runs `kops update cluster` with the operator flags on golden case
// goldenCase and applies its channel as the admin; with builtInFirst the built-in addon is applied
// first, so that the operator takes over running objects.
func applyOperatorAddons(t testing.TB, goldenCase string, builtInFirst bool) {
	s := kopsenv.NewStore(t, goldenCase)
	if builtInFirst {
		run := kopsenv.Apply(t, env, s.Update(t, ""), s.Mem, true)
		require.NoError(t, run.Err, run.Output)
	}
	location := s.Update(t, "ClusterAddons,UseAddonOperators")
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
}

// running is one operator process, in process.
type running struct {
	cancel context.CancelFunc
	done   chan error
}

// startOperator runs the operator's manager as replica identity until stop, rendering a default
// cluster's facts.
func startOperator(t testing.TB, cfg *rest.Config, identity string) *running {
	return startOperatorWith(t, cfg, identity, controller.DefaultOptions())
}

// startOperatorWith runs the operator's manager with opts, as replica identity with short lease
// timings, until stop.
func startOperatorWith(t testing.TB, cfg *rest.Config, identity string, opts controller.Options) *running {
	opts.Identity = identity
	opts.LeaseDuration, opts.RenewDeadline, opts.RetryPeriod = 3*time.Second, 2*time.Second, 200*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	ctx = klog.NewContext(ctx, klog.Background().WithName(identity))
	r := &running{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- controller.Run(ctx, cfg, opts) }()
	t.Cleanup(func() { _ = r.stop(t) }) // a test that cares about the error stops it itself
	return r
}

// stop ends the operator as SIGTERM would and returns what Run returned.
func (r *running) stop(t testing.TB) error {
	r.cancel()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the operator did not stop within 30s of its context ending")
		return nil
	}
}
