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

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// dnsCmd looks names up at a steady rate until --duration has passed or it is stopped, and
// reports as it goes:
//   - every --report: {"kind":"dns", "lookups":N, "failed":F, "p50_ms":..., ...}, cumulative since
//     the start, so the last line is the whole story;
//   - every failed lookup at once: {"kind":"dns-failure", "at_s":..., "name":..., "error":...};
//   - when it ends: the cumulative report with "final":true.
//
// Lookups run on their own, at most --max-in-flight at a time, so that one slow answer does not
// lower the rate; a lookup that cannot start because too many are in flight counts as failed.
// With --listen it also serves the current report at GET /report.
func dnsCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("dns", flag.ContinueOnError)
	names := fs.String("name", "", "names to look up in turn, comma-separated (required)")
	server := fs.String("server", "", "nameserver HOST[:PORT] (default: /etc/resolv.conf's)")
	network := fs.String("network", "ip4", "ip4 (A), ip6 (AAAA) or ip (both)")
	qps := fs.Float64("qps", 20, "lookups started per second")
	duration := fs.Duration("duration", 0, "how long to run (0: until stopped)")
	timeout := fs.Duration("timeout", 2*time.Second, "time limit of each lookup")
	report := fs.Duration("report", time.Second, "time between reports")
	maxInFlight := fs.Int("max-in-flight", 200, "lookups running at once at most")
	listen := fs.String("listen", "", "serve the current report at http://LISTEN/report")
	if err := fs.Parse(args); err != nil {
		return err
	}
	list := strings.Split(*names, ",")
	if *names == "" || fs.NArg() != 0 || *qps <= 0 || *report <= 0 {
		return errors.New("usage: testclient dns --name N[,N...] [--qps Q] [--duration D] [--server A] [--network ip4|ip6|ip] [--timeout D] [--report D] [--listen ADDR]")
	}
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	s := &dnsStats{start: time.Now()}
	if *listen != "" {
		ln, err := net.Listen("tcp", *listen)
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(s.snapshot(false))
		})}
		go func() { _ = srv.Serve(ln) }()
		defer func() { _ = srv.Close() }()
	}

	r := resolver(*server)
	slots := make(chan struct{}, *maxInFlight)
	var running sync.WaitGroup
	tick := time.NewTicker(time.Duration(float64(time.Second) / *qps))
	defer tick.Stop()
	reports := time.NewTicker(*report)
	defer reports.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			// The lookups in flight finish (each within --timeout) and are counted.
			running.Wait()
			emit(s.snapshot(true))
			return nil
		case <-reports.C:
			emit(s.snapshot(false))
		case <-tick.C:
			name := list[i%len(list)]
			select {
			case slots <- struct{}{}:
			default:
				s.record(name, 0, fmt.Errorf("more than %d lookups in flight", *maxInFlight))
				continue
			}
			running.Add(1)
			go func() {
				defer running.Done()
				defer func() { <-slots }()
				// A lookup started before the stop still runs to its end: a stop is not a failure.
				lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), *timeout)
				defer cancel()
				start := time.Now()
				addrs, err := r.LookupNetIP(lctx, *network, name)
				if err == nil && len(addrs) == 0 {
					err = errors.New("no addresses")
				}
				s.record(name, time.Since(start), err)
			}()
		}
	}
}

type dnsStats struct {
	start     time.Time
	mu        sync.Mutex
	lookups   int
	failed    int
	latencies []time.Duration
	lastError string
}

type dnsReport struct {
	Kind      string  `json:"kind"`
	Elapsed   float64 `json:"elapsed_s"`
	Lookups   int     `json:"lookups"`
	Failed    int     `json:"failed"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Max       float64 `json:"max_ms"`
	LastError string  `json:"last_error,omitempty"`
	Final     bool    `json:"final,omitempty"`
}

func (s *dnsStats) record(name string, took time.Duration, err error) {
	s.mu.Lock()
	s.lookups++
	if err != nil {
		s.failed++
		s.lastError = err.Error()
	} else if len(s.latencies) < 1_000_000 {
		s.latencies = append(s.latencies, took)
	}
	s.mu.Unlock()
	if err != nil {
		emit(struct {
			Kind  string  `json:"kind"`
			At    float64 `json:"at_s"`
			Name  string  `json:"name"`
			Error string  `json:"error"`
		}{"dns-failure", time.Since(s.start).Seconds(), name, err.Error()})
	}
}

func (s *dnsStats) snapshot(final bool) dnsReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	rep := dnsReport{Kind: "dns", Elapsed: time.Since(s.start).Seconds(), Lookups: s.lookups, Failed: s.failed,
		LastError: s.lastError, Final: final}
	if n := len(s.latencies); n > 0 {
		sorted := slices.Clone(s.latencies)
		slices.Sort(sorted)
		at := func(q float64) float64 { return millis(sorted[min(n-1, int(q*float64(n)))]) }
		rep.P50, rep.P99, rep.Max = at(0.50), at(0.99), millis(sorted[n-1])
	}
	return rep
}
