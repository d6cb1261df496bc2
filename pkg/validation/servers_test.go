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
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

// The API servers below are real listeners on 127.0.0.1 in the test process, each failing in one
// way a real server or network does.

// refusedServer is an address where nothing listens: a port the system handed out and took back.
func refusedServer(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr
}

// silentServer accepts connections and never reads from them nor answers.
func silentServer(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

// fakeServer serves handler over HTTP (TLS when tls) and counts the requests it gets.
func fakeServer(t testing.TB, tls bool, handler http.HandlerFunc) (string, *atomic.Int32) {
	var requests atomic.Int32
	counted := func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		handler(w, r)
	}
	s := httptest.NewUnstartedServer(http.HandlerFunc(counted))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // the TLS test's refused handshakes are expected
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s.URL, &requests
}

const discoveryDocument = `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"10.0.0.1:443"}]}`

// status answers with a Kubernetes Status, as the API server does for its errors.
func status(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`, message, reason, code)
}

// discoveryThen answers discovery as an API server does and any other request with then.
func discoveryThen(then http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == discoveryPath {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, discoveryDocument)
			return
		}
		then(w, r)
	}
}

// notFound is a server that has none of the objects validation reads: every check fails, answered.
func notFound(w http.ResponseWriter, r *http.Request) {
	status(w, http.StatusNotFound, "NotFound", r.URL.Path+" not found")
}

// hang holds the request until the client gives up.
func hang(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// endless streams a body that never ends, as fast as the client reads.
func endless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	chunk := []byte(`{"kind":"APIVersions","versions":["` + strings.Repeat("v", 64<<10))
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// trickle streams a body that never ends, one byte every few milliseconds: it never grows large,
// only the deadline ends it.
func trickle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	for r.Context().Err() == nil {
		if _, err := w.Write([]byte(" ")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		time.Sleep(5 * time.Millisecond)
	}
}

// validator is a Validator for the server at url, with client-go's defaults otherwise.
func validator(t testing.TB, url string) *Validator {
	v, err := NewValidator(&rest.Config{Host: url})
	require.NoError(t, err)
	return v
}

// builtIn is what a cluster with built-in CoreDNS must run: three checks.
func builtIn() *Expected {
	return &Expected{
		Cluster: "c.k8s.local", Channel: "file:///s/c.k8s.local/addons/bootstrap-channel.yaml",
		Addons:      []Addon{{Name: "coredns.addons.k8s.io", Namespace: "kube-system", ID: "k8s-1.12", Hash: hash(1)}},
		DNS:         DNSBuiltIn,
		DNSServerIP: "100.64.0.10",
	}
}
