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

package s3test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"k8s.io/kops/util/pkg/vfs/s3store"
)

// Fault answers a request in the real server's place and says so; false passes it on.
type Fault func(w http.ResponseWriter, r *http.Request) (answered bool)

// Proxy is an endpoint in front of the server that lets fault answer first, for the answers a
// misbehaving server gives. Requests pass with their Host kept, so their signatures still hold.
// It returns settings of the admin user that go through it.
func (s *Server) Proxy(t testing.TB, fault Fault) s3store.Settings {
	t.Helper()
	target, err := url.Parse(s.Endpoint)
	if err != nil {
		t.Fatalf("the test server's endpoint %q: %v", s.Endpoint, err)
	}
	pass := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !fault(w, r) {
			pass.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	settings := s.Settings()
	settings.Endpoint = srv.URL
	return settings
}

// WriteError answers as S3 does when it refuses a request: its status, an XML error and a request id.
func WriteError(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Amz-Request-Id", "s3test-fault")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>injected by s3test</Message></Error>`, code)
}
