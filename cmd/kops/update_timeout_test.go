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
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// TestUpdateTimeoutBoundsTheStore: an S3 endpoint that holds back its answers to writes, each
// within the store's own bound of one request (30s), ends `kops update cluster --yes` at its
// --timeout, naming that limit, with the store as it was; the next update, on an endpoint that
// answers, writes it all. The endpoint gives in after 10s, so the code before the bound ends too.
// The --timeout is generous: a timeout, not a speed assertion.
func TestUpdateTimeoutBoundsTheStore(t *testing.T) {
	c := newS3CLI(t)
	c.mustRun("create", "cluster", "u.k8s.local", "--zones", "us-east-2a")
	before := c.files()
	srv := s3test.Shared(t)
	dripping := srv.Proxy(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPut {
			select {
			case <-r.Context().Done():
				return true
			case <-time.After(10 * time.Second):
			}
		}
		return false
	})
	endpoint := c.env["S3_ENDPOINT"]
	c.env["S3_ENDPOINT"] = dripping.Endpoint
	r := c.run("update", "cluster", "u.k8s.local", "--yes", "--timeout", "2s")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "at S3_ENDPOINT "+dripping.Endpoint+" gave no answer before the command's time limit")
	c.env["S3_ENDPOINT"] = endpoint
	assert.Equal(t, before, c.files(), "the store as it was")

	r = c.run("update", "cluster", "u.k8s.local", "--yes", "--timeout", "0s")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "--timeout must be positive")
	c.mustRun("update", "cluster", "u.k8s.local", "--yes")
	assert.NotEqual(t, before, c.files(), "the next update writes the addons")
}
