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
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testclient sleep|resolve|dns|http|dial [flags]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "sleep":
		<-ctx.Done()
	case "resolve":
		err = resolveCmd(ctx, args)
	case "dns":
		err = dnsCmd(ctx, args)
	case "http":
		err = httpCmd(ctx, args)
	case "dial":
		err = dialCmd(ctx, args)
	default:
		err = fmt.Errorf("unknown command %q: want sleep, resolve, dns, http or dial", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testclient:", err)
		os.Exit(1)
	}
}

// emit writes one result line.
func emit(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own structs are marshalled
	}
	if _, err := os.Stdout.Write(append(b, '\n')); err != nil {
		fmt.Fprintln(os.Stderr, "testclient:", err)
		os.Exit(1)
	}
}

// resolver asks server ("host:port", port 53 when left out) over UDP, or the system's
// nameservers when server is empty. The pure Go resolver, so that the pod's resolv.conf is read
// the same way whatever the image lacks (no libc, no nsswitch).
func resolver(server string) *net.Resolver {
	r := &net.Resolver{PreferGo: true}
	if server != "" {
		if _, _, err := net.SplitHostPort(server); err != nil {
			server = net.JoinHostPort(server, "53")
		}
		r.Dial = func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, server)
		}
	}
	return r
}

type lookupResult struct {
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Addresses []string `json:"addresses,omitempty"`
	Error     string   `json:"error,omitempty"`
	Millis    float64  `json:"ms"`
}

func resolveCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	server := fs.String("server", "", "nameserver HOST[:PORT] (default: /etc/resolv.conf's)")
	network := fs.String("network", "ip4", "ip4 (A), ip6 (AAAA) or ip (both)")
	timeout := fs.Duration("timeout", 5*time.Second, "time limit of the lookup")
	usage := errors.New("usage: testclient resolve NAME [--server A] [--network ip4|ip6|ip] [--timeout D]")
	// Flags before or after the name, as the usage line shows them.
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usage
	}
	name := fs.Arg(0)
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usage
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	start := time.Now()
	addrs, err := resolver(*server).LookupNetIP(ctx, *network, name)
	res := lookupResult{Kind: "resolve", Name: name, Millis: millis(time.Since(start))}
	for _, a := range addrs {
		res.Addresses = append(res.Addresses, a.Unmap().String())
	}
	if err != nil {
		res.Error = err.Error()
	}
	emit(res)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", name, err)
	}
	return nil
}

func httpCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("http", flag.ContinueOnError)
	url := fs.String("url", "", "URL to GET (required)")
	count := fs.Int("count", 1, "how many requests")
	interval := fs.Duration("interval", time.Second, "time between requests")
	timeout := fs.Duration("timeout", 3*time.Second, "time limit of each request")
	var headers stringList
	fs.Var(&headers, "header", "a request header NAME:VALUE (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" || fs.NArg() != 0 {
		return errors.New("usage: testclient http --url URL [--count N] [--interval D] [--timeout D] [--header K:V]")
	}
	// No proxy from the environment, no keep-alive: each request opens its own connection, as a
	// fresh client would, so a rule that changes between requests is seen by the next one.
	client := &http.Client{Timeout: *timeout, Transport: &http.Transport{DisableKeepAlives: true}}
	failed := 0
	for i := 0; i < *count; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(*interval):
			}
		}
		res := httpResult{Kind: "http", URL: *url}
		start := time.Now()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
		if err != nil {
			return err
		}
		for _, h := range headers {
			name, value, ok := strings.Cut(h, ":")
			if !ok {
				return fmt.Errorf("--header %q: want NAME:VALUE", h)
			}
			req.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		resp, err := client.Do(req)
		if err == nil {
			body, readErr := io.ReadAll(io.LimitReader(resp.Body, 4096))
			_ = resp.Body.Close()
			res.Status, res.Body, err = resp.StatusCode, string(body), readErr
		}
		res.Millis = millis(time.Since(start))
		if err != nil {
			res.Error = err.Error()
			failed++
		}
		emit(res)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d requests to %s got no answer", failed, *count, *url)
	}
	return nil
}

type httpResult struct {
	Kind   string  `json:"kind"`
	URL    string  `json:"url"`
	Status int     `json:"status,omitempty"`
	Body   string  `json:"body,omitempty"`
	Error  string  `json:"error,omitempty"`
	Millis float64 `json:"ms"`
}

func dialCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("dial", flag.ContinueOnError)
	addr := fs.String("addr", "", "HOST:PORT to connect to (required)")
	timeout := fs.Duration("timeout", 3*time.Second, "time limit of the connection")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || fs.NArg() != 0 {
		return errors.New("usage: testclient dial --addr HOST:PORT [--timeout D]")
	}
	d := net.Dialer{Timeout: *timeout}
	start := time.Now()
	conn, err := d.DialContext(ctx, "tcp", *addr)
	res := struct {
		Kind   string  `json:"kind"`
		Addr   string  `json:"addr"`
		Error  string  `json:"error,omitempty"`
		Millis float64 `json:"ms"`
	}{Kind: "dial", Addr: *addr, Millis: millis(time.Since(start))}
	if err != nil {
		res.Error = err.Error()
	} else {
		_ = conn.Close() // only the dial is measured
	}
	emit(res)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", *addr, err)
	}
	return nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
