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
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"k8s.io/kops/pkg/kubeconfig"
)

// Applier applies channels to one cluster.
type Applier struct {
	dynamic   dynamic.Interface
	resources *serverResources
	// crdMappings are the resources of the CRDs this run established, known from the CRDs
	// themselves, so that their custom resources need no new discovery round. The CRDs of one
	// phase are awaited together: crdMu guards the map.
	crdMu       sync.Mutex
	crdMappings map[schema.GroupVersionKind]*meta.RESTMapping
	bound       *runBound
	// config is the rest config every client is made from (enforcement probes act as other users).
	config *rest.Config
	opts   Options
	// version is the API server's, read when an addon names a kubernetesVersion range.
	version *semver.Version
}

// New connects to the cluster behind config.
func New(config *rest.Config, opts Options) (*Applier, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = "kops-channels"
	}
	if opts.WaitTimeout == 0 {
		opts.WaitTimeout = time.Minute
	}
	if opts.EnforceTimeout == 0 {
		opts.EnforceTimeout = 30 * time.Second
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	config = ClientConfig(config, opts.RequestTimeout)
	bound := &runBound{}
	config.Wrap(bound.wrap)
	// One HTTP client (one connection pool, one TLS handshake) and one rate limiter for both.
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfigAndClient(config, httpClient)
	if err != nil {
		return nil, err
	}
	discoveryConfig := rest.CopyConfig(config)
	discoveryConfig.GroupVersion = &schema.GroupVersion{}
	discoveryConfig.NegotiatedSerializer = serializer.NewCodecFactory(runtime.NewScheme()).WithoutConversion()
	discoveryClient, err := rest.UnversionedRESTClientForConfigAndClient(discoveryConfig, httpClient)
	if err != nil {
		return nil, err
	}
	return &Applier{
		dynamic: dyn, resources: &serverResources{client: discoveryClient},
		crdMappings: map[schema.GroupVersionKind]*meta.RESTMapping{}, bound: bound, config: config, opts: opts,
	}, nil
}

// ClientConfig is config (copied) with the request timeout and, unless the caller chose a limit,
// the rate limit of kubeconfig.DefaultQPS and DefaultBurst, shared by every client made from it.
func ClientConfig(config *rest.Config, requestTimeout time.Duration) *rest.Config {
	config = rest.CopyConfig(config)
	config.Timeout = requestTimeout
	if config.RateLimiter == nil {
		if config.QPS == 0 {
			config.QPS, config.Burst = kubeconfig.DefaultQPS, kubeconfig.DefaultBurst
		}
		config.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(config.QPS, config.Burst)
	}
	return config
}

// runBound ties every request to the context of the run in progress. client-go's discovery takes
// no context, so without this a discovery request would outlive a cancelled or timed-out run.
type runBound struct {
	mu  sync.Mutex
	ctx context.Context
}

func (b *runBound) set(ctx context.Context) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ctx = ctx
}

func (b *runBound) wrap(next http.RoundTripper) http.RoundTripper {
	return &boundTransport{bound: b, next: next}
}

type boundTransport struct {
	bound *runBound
	next  http.RoundTripper
}

func (t *boundTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.bound.mu.Lock()
	run := t.bound.ctx
	t.bound.mu.Unlock()
	if run == nil {
		return t.next.RoundTrip(req)
	}
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(run, cancel)
	release := func() { stop(); cancel() }
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// CancelRequest is what client-go's timeout handling looks for; requests are cancelled through
// their contexts, so there is nothing left to do here.
func (t *boundTransport) CancelRequest(*http.Request) {}

// WrappedRoundTripper lets client-go see through this transport.
func (t *boundTransport) WrappedRoundTripper() http.RoundTripper { return t.next }

// releasingBody keeps the request's context alive until its body is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
	once    sync.Once
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// noAnswer tells a server that did not answer in time (or a run that was cancelled) from a
// server that answered with an error.
func noAnswer(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
