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
	"errors"
	"net/http"
	"sync"
)

// Recorder keeps every request and hands it to Next; with Next nil it sends nothing (ErrNotSent).
type Recorder struct {
	Next http.RoundTripper

	mu       sync.Mutex
	requests []*http.Request
}

var ErrNotSent = errors.New("s3test.Recorder: request recorded, not sent")

func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.requests = append(r.requests, req.Clone(req.Context()))
	r.mu.Unlock()
	if r.Next == nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, ErrNotSent
	}
	return r.Next.RoundTrip(req)
}

func (r *Recorder) Requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.requests...)
}

// Matching are requests with method whose query has the parameter query (empty: any).
func (r *Recorder) Matching(method, query string) []*http.Request {
	var out []*http.Request
	for _, req := range r.Requests() {
		if req.Method == method && (query == "" || req.URL.Query().Has(query)) {
			out = append(out, req)
		}
	}
	return out
}
