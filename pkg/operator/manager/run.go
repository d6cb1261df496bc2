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

package manager

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	kubecfg "k8s.io/kops/pkg/kubeconfig"
	"k8s.io/kops/pkg/operator"
)

// Options are an operator's settings, from its flags.
type Options struct {
	// Namespace holds the leader-election lease.
	Namespace   string
	LeaderElect bool
	// Identity names this replica in the lease; required when LeaderElect is set.
	Identity                                  string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// ProbeListener serves /healthz and /readyz; nil serves none.
	ProbeListener net.Listener
}

func DefaultOptions(d *operator.Descriptor) Options {
	return Options{
		Namespace:     d.Namespace,
		LeaderElect:   true,
		LeaseDuration: 15 * time.Second,
		RenewDeadline: 10 * time.Second,
		RetryPeriod:   2 * time.Second,
	}
}

// Run runs the operator until ctx ends (returning nil after releasing its lease) or it loses its
// lease (returning an error: the process should restart).
func Run[S comparable](ctx context.Context, cfg *rest.Config, opts Options, addon Addon[S]) error {
	logger := klog.FromContext(ctx)
	d := addon.Descriptor
	client, err := dynamic.NewForConfig(withRateLimit(cfg))
	if err != nil {
		return fmt.Errorf("creating the API client: %w", err)
	}
	var ready atomic.Bool
	if opts.ProbeListener != nil {
		srv := probeServer(&ready)
		go func() {
			if err := srv.Serve(opts.ProbeListener); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Error(err, "Probe server stopped")
			}
		}()
		defer func() {
			shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(shutdown)
		}()
	}
	events := newEventRecorder(ctx, client, d.EventReporter())
	run := func(ctx context.Context) error {
		c, err := NewController(client, events, addon)
		if err != nil {
			return err
		}
		c.onSynced = func() { ready.Store(true) }
		defer ready.Store(false)
		return c.Run(ctx)
	}
	if !opts.LeaderElect {
		return run(ctx)
	}
	// A replica waiting for the lease is ready: otherwise a rolling update's new pod, waiting for
	// the old pod's lease, would never become ready and the rollout would stall.
	ready.Store(true)
	leading := run
	run = func(ctx context.Context) error {
		ready.Store(false)
		return leading(ctx)
	}
	return runElected(ctx, client, d.LeaseName, opts, events, run)
}

func runElected(ctx context.Context, client dynamic.Interface, lease string, opts Options, events record.EventRecorder, run func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	if opts.Identity == "" {
		return fmt.Errorf("no leader-election identity")
	}
	elector := &leaseElector{
		leases:        client.Resource(leasesGVR).Namespace(opts.Namespace),
		name:          lease,
		identity:      opts.Identity,
		leaseDuration: opts.LeaseDuration,
		renewDeadline: opts.RenewDeadline,
		retryTime:     opts.RetryPeriod,
		events:        events,
	}
	runErr, lost := elector.run(ctx, func(ctx context.Context) error {
		logger.Info("Leading", "lease", opts.Namespace+"/"+lease, "identity", opts.Identity)
		return run(ctx)
	})
	logger.Info("Stopped leading", "identity", opts.Identity)
	switch {
	case runErr != nil:
		return runErr
	case lost:
		return fmt.Errorf("lost the lease %s/%s", opts.Namespace, lease)
	}
	return nil
}

func probeServer(ready *atomic.Bool) *http.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !ready.Load() {
			http.Error(w, "not reconciling: waiting for the lease or the caches", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
}

// withRateLimit raises client-go's default rate limit, which would queue the applies of a
// rollout's status events behind each other. It is set here, not by the command, so every caller
// of Run runs the operator as shipped.
func withRateLimit(cfg *rest.Config) *rest.Config {
	out := rest.CopyConfig(cfg)
	out.QPS, out.Burst = kubecfg.DefaultQPS, kubecfg.DefaultBurst
	out.RateLimiter = nil
	return out
}
