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

package validation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

// shortTimeout is the time limit of one validation in the tests that wait for it: short enough
// that they stay quick. The other tests give a minute, so that a loaded machine cannot turn their
// failure into a deadline. No test measures time; the benchmarks below do.
const shortTimeout = 300 * time.Millisecond

// TestUnreachableServerIsOneError: a server that cannot be reached, does not answer, answers
// without end, refuses the credentials or is no Kubernetes API server fails the validation with
// one error naming the server and the cause, and no result (no check is reported failing).
func TestUnreachableServerIsOneError(t *testing.T) {
	cases := []struct {
		name   string
		server func(t *testing.T) (string, func() int32)
		// request is the request that failed; cause is in the message.
		request, cause string
		deadline       bool
		tooLarge       bool
		// requests the server got: the ones after a lost request are not sent.
		requests int32
	}{
		{name: "nothing listens", server: noCount(refusedServer), request: "GET /api", cause: "connection refused"},
		{name: "accepts and never answers", server: noCount(silentServer), request: "GET /api",
			cause: "no answer within the time limit of one validation (300ms): context deadline exceeded", deadline: true},
		{name: "endless body", server: counted(false, endless), request: "GET /api",
			cause: "the answer exceeds 16 MiB", tooLarge: true, requests: 1},
		{name: "endless slow body", server: counted(false, trickle), request: "GET /api",
			cause: "no answer within the time limit of one validation (300ms): context deadline exceeded", deadline: true, requests: 1},
		{name: "403 on discovery", server: counted(false, func(w http.ResponseWriter, r *http.Request) {
			status(w, http.StatusForbidden, "Forbidden", `forbidden: User "system:anonymous" cannot get path "/api"`)
		}), request: "GET /api", cause: `the kubeconfig's user may not read the API (403 Forbidden): forbidden: User "system:anonymous" cannot get path "/api"`, requests: 1},
		{name: "401 on discovery", server: counted(false, func(w http.ResponseWriter, r *http.Request) {
			status(w, http.StatusUnauthorized, "Unauthorized", "Unauthorized")
		}), request: "GET /api", cause: "the server refused the kubeconfig's credentials (401 Unauthorized)", requests: 1},
		{name: "TLS certificate of an unknown authority", server: counted(true, notFound), request: "GET /api",
			cause: "tls: failed to verify certificate: x509: certificate signed by unknown authority"},
		{name: "not a Kubernetes API server", server: counted(false, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "<html>welcome</html>")
		}), request: "GET /api", cause: `the answer is not a Kubernetes API server's discovery document ("<html>welcome</html>")`, requests: 1},
		{name: "stops answering after discovery", server: counted(false, discoveryThen(hang)), request: "get namespaces/kube-system",
			cause: "no answer within the time limit of one validation (300ms): context deadline exceeded", deadline: true, requests: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, requests := tc.server(t)
			timeout := time.Minute
			if tc.deadline {
				timeout = shortTimeout
			}
			result, err := validator(t, url).Wait(context.Background(), builtIn(), WaitOptions{Timeout: timeout})
			require.Error(t, err)
			assert.Nil(t, result, "no check is reported: they would all fail the same way")
			var unreachable *UnreachableError
			require.ErrorAs(t, err, &unreachable)
			assert.Equal(t, url, unreachable.Server)
			assert.Equal(t, tc.request, unreachable.Request)
			assert.Contains(t, err.Error(), "cannot validate against the API server "+url+": "+tc.request+": ")
			assert.Contains(t, err.Error(), tc.cause)
			assert.Equal(t, 1, strings.Count(err.Error(), url), "the server is named once: %s", err)
			assert.Equal(t, tc.deadline, errors.Is(err, context.DeadlineExceeded), "deadline: %s", err)
			var large *ErrResponseTooLarge
			assert.Equal(t, tc.tooLarge, errors.As(err, &large), "too large: %s", err)
			if requests != nil {
				assert.Equal(t, tc.requests, requests(), "requests the server got")
			}
		})
	}
}

func noCount(server func(testing.TB) string) func(*testing.T) (string, func() int32) {
	return func(t *testing.T) (string, func() int32) { return server(t), nil }
}

func counted(tls bool, handler http.HandlerFunc) func(*testing.T) (string, func() int32) {
	return func(t *testing.T) (string, func() int32) {
		url, n := fakeServer(t, tls, handler)
		return url, n.Load
	}
}

// TestServerAnswersFailChecks: errors the server answers for one object (not found, forbidden)
// fail that object's check only, and the validation goes on.
func TestServerAnswersFailChecks(t *testing.T) {
	url, _ := fakeServer(t, false, discoveryThen(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/services/") {
			status(w, http.StatusForbidden, "Forbidden", `services "kube-dns" is forbidden: User "u" cannot get resource "services"`)
			return
		}
		notFound(w, r)
	}))
	result, err := validator(t, url).Wait(context.Background(), builtIn(), WaitOptions{Timeout: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, []Check{
		{Kind: "Addon", Name: "coredns.addons.k8s.io", Message: "not applied: namespace kube-system does not exist"},
		{Kind: "Deployment", Name: "kube-system/coredns", Message: "missing"},
		{Kind: "Service", Name: "kube-system/kube-dns", Message: `services "kube-dns" is forbidden: User "u" cannot get resource "services"`},
	}, result.Checks)
}

// TestWaitAndTimeout: how --wait and --timeout combine.
func TestWaitAndTimeout(t *testing.T) {
	t.Run("every attempt that cannot reach the server is one progress line", func(t *testing.T) {
		url := refusedServer(t)
		var progress bytes.Buffer
		result, err := validator(t, url).Wait(context.Background(), builtIn(),
			WaitOptions{Timeout: time.Minute, Wait: 500 * time.Millisecond, Interval: 50 * time.Millisecond, Progress: &progress})
		assert.Nil(t, result)
		var unreachable *UnreachableError
		require.ErrorAs(t, err, &unreachable)
		lines := strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n")
		require.GreaterOrEqual(t, len(lines), 2, progress.String())
		for i, line := range lines {
			assert.Regexp(t, `^Validation `+strconv.Itoa(i+1)+` failed: cannot reach the API server \(connection refused\); next in 50ms, \d+(ms|s) left$`, line)
			assert.NotContains(t, line, url, "the server is named once, in the error at the end")
		}
	})

	t.Run("the end of the wait bounds an attempt under a longer timeout", func(t *testing.T) {
		url := silentServer(t)
		_, err := validator(t, url).Wait(context.Background(), builtIn(),
			WaitOptions{Timeout: time.Hour, Wait: shortTimeout, Interval: 50 * time.Millisecond})
		var limit *TimeLimitError
		require.ErrorAs(t, err, &limit)
		assert.Equal(t, &TimeLimitError{Limit: LimitWait, Duration: shortTimeout}, limit)
		assert.ErrorContains(t, err, "GET /api: the wait for a healthy cluster (300ms) ran out: context deadline exceeded")
	})

	t.Run("the timeout bounds each attempt within a longer wait", func(t *testing.T) {
		url := silentServer(t)
		var progress bytes.Buffer
		_, err := validator(t, url).Wait(context.Background(), builtIn(),
			WaitOptions{Timeout: 100 * time.Millisecond, Wait: 700 * time.Millisecond, Interval: 10 * time.Millisecond, Progress: &progress})
		require.Error(t, err)
		assert.Contains(t, progress.String(), "Validation 1 failed: cannot reach the API server (no answer within 100ms); next in 10ms")
		assert.GreaterOrEqual(t, strings.Count(progress.String(), "\n"), 2, "the wait goes on after an attempt times out:\n%s", progress.String())
	})

	t.Run("the client's timeout of one request within a longer validation", func(t *testing.T) {
		url := silentServer(t)
		v, err := NewValidator(&rest.Config{Host: url, Timeout: 100 * time.Millisecond})
		require.NoError(t, err)
		_, err = v.Wait(context.Background(), builtIn(), WaitOptions{Timeout: time.Hour})
		var limit *TimeLimitError
		require.ErrorAs(t, err, &limit)
		assert.Equal(t, &TimeLimitError{Limit: LimitRequest, Duration: 100 * time.Millisecond}, limit)
		assert.ErrorContains(t, err, "GET /api: no answer within the time limit of one request (100ms): context deadline exceeded")
	})

	t.Run("an attempt the end of the wait cuts short leaves the one before", func(t *testing.T) {
		// The first attempt is answered (every check fails: nothing exists); then the server
		// stops answering, so the next attempt runs into the end of the wait.
		var answered atomic.Int32
		url, _ := fakeServer(t, false, func(w http.ResponseWriter, r *http.Request) {
			if answered.Add(1) > 4 { // discovery and the three checks
				hang(w, r)
				return
			}
			discoveryThen(notFound)(w, r)
		})
		var progress bytes.Buffer
		result, err := validator(t, url).Wait(context.Background(), builtIn(),
			WaitOptions{Timeout: time.Hour, Wait: time.Second, Interval: 10 * time.Millisecond, Progress: &progress})
		require.NoError(t, err, "the cut attempt's deadline is not the outcome")
		require.NotNil(t, result)
		assert.Len(t, result.Failures(), 3)
		assert.Equal(t, 1, strings.Count(progress.String(), "\n"), progress.String())
		line := strings.TrimSuffix(progress.String(), "\n")
		assert.True(t, strings.HasPrefix(line, "Validation 1 failed: 3 of 3 checks failing: Addon coredns.addons.k8s.io, "), line)
		assert.True(t, strings.HasSuffix(line, "…; next in 10ms, 1s left"), "the failures are cut short, the timing kept: %s", line)
		assert.Equal(t, ProgressWidth, utf8.RuneCountInString(line), line)
	})

	t.Run("a count needs a wait", func(t *testing.T) {
		_, err := validator(t, refusedServer(t)).Wait(context.Background(), builtIn(), WaitOptions{Timeout: time.Second, Count: 2})
		assert.ErrorContains(t, err, "a count of 2 validations needs a wait")
	})

	t.Run("options", func(t *testing.T) {
		v := validator(t, refusedServer(t))
		for _, o := range []WaitOptions{{}, {Timeout: -time.Second}, {Timeout: time.Second, Wait: -time.Second}, {Timeout: time.Second, Wait: time.Second}} {
			_, err := v.Wait(context.Background(), builtIn(), o)
			assert.ErrorContains(t, err, "the timeout must be positive, the wait not negative, and the interval positive with a wait", "%+v", o)
		}
	})
}

// TestBoundedBodies: an answer up to the limit reaches client-go whole; one byte more, announced
// or not, fails the request before client-go reads it.
func TestBoundedBodies(t *testing.T) {
	const limit = 1000
	cases := []struct {
		name    string
		size    int
		chunked bool
		wantErr bool
	}{
		{"at the limit", limit, false, false},
		{"at the limit, chunked", limit, true, false},
		{"over the limit, announced", limit + 1, false, true},
		{"over the limit, chunked", limit + 1, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := fakeServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				if !tc.chunked {
					w.Header().Set("Content-Length", strconv.Itoa(tc.size))
				}
				_, _ = io.WriteString(w, strings.Repeat("x", tc.size))
			})
			req := httptest.NewRequest(http.MethodGet, url, nil)
			req.RequestURI = ""
			resp, err := (&boundedBodies{next: http.DefaultTransport, limit: limit}).RoundTrip(req)
			if tc.wantErr {
				var large *ErrResponseTooLarge
				require.ErrorAs(t, err, &large)
				return
			}
			require.NoError(t, err)
			defer func() { _ = resp.Body.Close() }() // read whole already; the test checks the read
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Len(t, body, tc.size)
		})
	}
}

// BenchmarkValidateUnreachable: the time one validation takes against each kind of unreachable
// server, with a time limit of 300 ms. A server that never answers costs the limit once (before
// the one deadline, three checks cost a request timeout each); a refused connection or an endless
// body fail at once.
func BenchmarkValidateUnreachable(b *testing.B) {
	servers := map[string]func(testing.TB) string{
		"refused":            refusedServer,
		"silent":             silentServer,
		"endless":            func(tb testing.TB) string { url, _ := fakeServer(tb, false, endless); return url },
		"trickle":            func(tb testing.TB) string { url, _ := fakeServer(tb, false, trickle); return url },
		"lostAfterDiscovery": func(tb testing.TB) string { url, _ := fakeServer(tb, false, discoveryThen(hang)); return url },
	}
	for name, server := range servers {
		b.Run(name, func(b *testing.B) {
			v := validator(b, server(b))
			for b.Loop() {
				_, err := v.Wait(context.Background(), builtIn(), WaitOptions{Timeout: shortTimeout})
				require.Error(b, err)
			}
		})
	}
}

// TestWaitCount: --count N needs N validations in a row that find the cluster healthy; a failure
// in between starts the count again, and a wait that ends first returns the healthy result with a
// *CountError.
func TestWaitCount(t *testing.T) {
	record := fmt.Sprintf(`{"id":"k8s-1.12","manifestHash":%q}`, hash(1))
	expected := &Expected{Cluster: "c.k8s.local", DNS: DNSNone,
		Addons: []Addon{{Name: "coredns.addons.k8s.io", Namespace: "kube-system", ID: "k8s-1.12", Hash: hash(1)}}}
	// server answers the namespace's record on every read but those in fail (counted from 1).
	server := func(t *testing.T, fail ...int32) string {
		var reads atomic.Int32
		url, _ := fakeServer(t, false, discoveryThen(func(w http.ResponseWriter, r *http.Request) {
			n := reads.Add(1)
			for _, f := range fail {
				if n == f {
					notFound(w, r)
					return
				}
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system","annotations":{"addons.k8s.io/coredns.addons.k8s.io":%q}}}`, record)
		}))
		return url
	}
	lines := func(b *bytes.Buffer) []string { return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") }

	t.Run("three in a row", func(t *testing.T) {
		var progress bytes.Buffer
		r, err := validator(t, server(t)).Wait(context.Background(), expected,
			WaitOptions{Timeout: time.Minute, Wait: time.Minute, Interval: time.Millisecond, Count: 3, Progress: &progress})
		require.NoError(t, err)
		assert.True(t, r.Healthy())
		got := lines(&progress)
		require.Len(t, got, 2, progress.String())
		assert.Regexp(t, `^Validation 1 passed \(1 of 3 in a row\); next in 1ms, `, got[0])
		assert.Regexp(t, `^Validation 2 passed \(2 of 3 in a row\); next in 1ms, `, got[1])
	})

	t.Run("a failure starts the count again", func(t *testing.T) {
		var progress bytes.Buffer
		_, err := validator(t, server(t, 2)).Wait(context.Background(), expected,
			WaitOptions{Timeout: time.Minute, Wait: time.Minute, Interval: time.Millisecond, Count: 2, Progress: &progress})
		require.NoError(t, err)
		got := lines(&progress)
		require.Len(t, got, 3, progress.String())
		assert.Contains(t, got[0], "Validation 1 passed (1 of 2 in a row)")
		assert.Contains(t, got[1], "Validation 2 failed: 1 of 1 checks failing: Addon coredns.addons.k8s.io;")
		assert.Contains(t, got[2], "Validation 3 passed (1 of 2 in a row)")
	})

	t.Run("the wait ends before the count", func(t *testing.T) {
		r, err := validator(t, server(t)).Wait(context.Background(), expected,
			WaitOptions{Timeout: time.Minute, Wait: 300 * time.Millisecond, Interval: 200 * time.Millisecond, Count: 5})
		var count *CountError
		require.ErrorAs(t, err, &count)
		assert.Equal(t, 5, count.Count)
		assert.GreaterOrEqual(t, count.Passed, 1)
		require.NotNil(t, r)
		assert.True(t, r.Healthy(), "the last result is returned")
	})
}
