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
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// listenerURL is the URL of a real listener on 127.0.0.1 that accepts connections and never
// answers; with closed, the listener is closed at once and nothing listens there.
func listenerURL(t *testing.T, closed bool) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String()
	if closed {
		require.NoError(t, l.Close())
		return url
	}
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, never read nor answered
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		close(accepted)
		for c := range accepted {
			_ = c.Close()
		}
	})
	return url
}

// serverURL serves handler on a real listener on 127.0.0.1.
func serverURL(t *testing.T, handler http.HandlerFunc) string {
	s := httptest.NewServer(handler)
	t.Cleanup(s.Close)
	return s.URL
}

// kubeconfigFor writes a kubeconfig whose one context, current, is named after the cluster
// v.k8s.local and talks to server.
func kubeconfigFor(t *testing.T, server string) string {
	return kubeconfigWith(t, map[string]string{"v.k8s.local": server}, "v.k8s.local")
}

// kubeconfigWith writes a kubeconfig with a context per entry of servers, named as its key.
func kubeconfigWith(t *testing.T, servers map[string]string, current string) string {
	var clusters, contexts strings.Builder
	for name, server := range servers {
		fmt.Fprintf(&clusters, "- name: %s\n  cluster: {server: %q}\n", name, server)
		fmt.Fprintf(&contexts, "- name: %s\n  context: {cluster: %s, user: u}\n", name, name)
	}
	p := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(p, []byte("apiVersion: v1\nkind: Config\nclusters:\n"+clusters.String()+
		"users:\n- name: u\n  user: {token: t}\ncontexts:\n"+contexts.String()+"current-context: "+current+"\n"), 0o600))
	return p
}

// TestValidateUnreachableServer: whatever keeps kops from talking to the API server, validate
// says so once, naming the server and the cause, and lists no checks; a server that does not
// answer ends the validation at --timeout, which the error names.
func TestValidateUnreachableServer(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "v.k8s.local", "--zones", "us-east-2a", "--yes")

	cases := []struct {
		name   string
		server func(t *testing.T) string
		cause  string
		// timeout is short where the deadline is the point, else long enough for a loaded machine.
		timeout string
	}{
		{"nothing listens", func(t *testing.T) string { return listenerURL(t, true) }, "GET /api: dial tcp ", "1m"},
		{"accepts and never answers", func(t *testing.T) string { return listenerURL(t, false) },
			"GET /api: no answer within the time limit of one validation (300ms): context deadline exceeded\n(one validation may take at most --timeout=300ms)", "300ms"},
		{"endless body", func(t *testing.T) string {
			return serverURL(t, func(w http.ResponseWriter, r *http.Request) {
				chunk := []byte(strings.Repeat("x", 64<<10))
				for r.Context().Err() == nil {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			})
		}, "GET /api: the answer exceeds 16 MiB", "1m"},
		{"403", func(t *testing.T) string {
			return serverURL(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"forbidden: User \"u\" cannot get path \"/api\"","reason":"Forbidden","code":403}`))
			})
		}, `GET /api: the kubeconfig's user may not read the API (403 Forbidden): forbidden: User "u" cannot get path "/api"`, "1m"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			server := tc.server(t)
			r := c.run("validate", "cluster", "v.k8s.local", "--kubeconfig", kubeconfigFor(t, server), "--timeout", tc.timeout)
			assert.Equal(t, 1, r.code)
			assert.Empty(t, r.stdout, "no table of checks that all failed the same way")
			assert.True(t, strings.HasPrefix(r.stderr, "Error: cannot validate against the API server "+server+": "), r.stderr)
			assert.Equal(t, 1, strings.Count(r.stderr, server), "the server is named once:\n%s", r.stderr)
			assert.Equal(t, 1, strings.Count(r.stderr, "Error:"), r.stderr)
			assert.Contains(t, r.stderr, tc.cause)
		})
	}

	t.Run("with --wait, the wait's end bounds the last attempt", func(t *testing.T) {
		server := listenerURL(t, false)
		r := c.run("validate", "cluster", "v.k8s.local", "--kubeconfig", kubeconfigFor(t, server), "--wait", "300ms", "--timeout", "1h")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "GET /api: the wait for a healthy cluster (300ms) ran out: context deadline exceeded\n(--wait=300ms was over; each validation may also take at most --timeout=1h0m0s)")
	})

	t.Run("with --wait, each attempt is a short line and the server is named once", func(t *testing.T) {
		server := listenerURL(t, true)
		r := c.run("validate", "cluster", "v.k8s.local", "--kubeconfig", kubeconfigFor(t, server), "--wait", "1s", "--interval", "100ms")
		assert.Equal(t, 1, r.code)
		assert.Regexp(t, `^Validation 1 failed: cannot reach the API server \(connection refused\); next in 100ms, 1s left\n`, r.stderr)
		assert.GreaterOrEqual(t, strings.Count(r.stderr, "\nValidation "), 2, r.stderr)
		assert.Equal(t, 1, strings.Count(r.stderr, server), "the server is named once, in the error:\n%s", r.stderr)
		assert.Equal(t, 1, strings.Count(r.stderr, "Error:"), r.stderr)
	})

	t.Run("--request-timeout shorter than --timeout", func(t *testing.T) {
		server := listenerURL(t, false)
		r := c.run("validate", "cluster", "v.k8s.local", "--kubeconfig", kubeconfigFor(t, server), "--request-timeout", "300ms", "--timeout", "1h")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "GET /api: no answer within the time limit of one request (300ms): context deadline exceeded\n(each request may take at most --request-timeout=300ms)")
	})

	for _, flag := range []string{"--timeout", "--request-timeout"} {
		r := c.run("validate", "cluster", "v.k8s.local", flag, "0s")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "--wait must not be negative; --interval, --timeout and --request-timeout must be positive")
	}
}

// TestValidateTimeoutBoundsTheStore: reading the state store is part of one validation, so an S3
// endpoint that holds its answers back ends validate at --timeout, naming that limit, not at the
// store's own bound of each request (30s) or later. The endpoint gives in after 20s, so the code
// before the bound ends too. The --timeout is generous: a timeout, not a speed assertion.
func TestValidateTimeoutBoundsTheStore(t *testing.T) {
	c := newS3CLI(t)
	c.mustRun("create", "cluster", "v.k8s.local", "--zones", "us-east-2a", "--yes")
	srv := s3test.Shared(t)
	dripping := srv.Proxy(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet {
			select {
			case <-r.Context().Done():
				return true
			case <-time.After(20 * time.Second):
			}
		}
		return false
	})
	c.env["S3_ENDPOINT"] = dripping.Endpoint
	r := c.run("validate", "cluster", "v.k8s.local", "--kubeconfig", kubeconfigFor(t, listenerURL(t, true)), "--timeout", "2s")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "S3 endpoint unreachable: ")
	assert.Contains(t, r.stderr, "at S3_ENDPOINT "+dripping.Endpoint+" gave no answer before the command's time limit")
}
