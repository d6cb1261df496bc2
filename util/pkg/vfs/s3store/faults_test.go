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

package s3store_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// listing answers a ListObjectsV2 page of one key, truncated with a new token each time.
func listing(w http.ResponseWriter, page int64, truncated bool) {
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("X-Amz-Request-Id", "s3test-fault")
	_, _ = fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`+
		`<IsTruncated>%t</IsTruncated><NextContinuationToken>token-%d</NextContinuationToken><Contents><Key>state/c%d</Key></Contents></ListBucketResult>`,
		truncated, page, page)
}

func isList(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Query().Get("list-type") == "2"
}

// TestS3AnswersThatAreNotS3: an endpoint that answers what no S3 server does ends the command
// with ErrNotS3 naming the endpoint, instead of "no such file" (read as "no clusters found") or
// reading without end. The faulty answers end on their own past the bounds (so the code before
// the bounds ends too, wrongly); what the client read is measured by what the server could write.
func TestS3AnswersThatAreNotS3(t *testing.T) {
	const beyond = 4 * (vfs.MaxFileSize + 1<<20)
	srv := s3test.Shared(t)
	var written, pages atomic.Int64
	tests := []struct {
		name      string
		fault     s3test.Fault
		want      string
		wantPages int64
	}{
		{"a web page", func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = fmt.Fprint(w, "<html><body>Welcome</body></html>")
			return true
		}, "the endpoint answered with a web page (HTTP 200, text/html)", 0},
		{"an endless listing", func(w http.ResponseWriter, r *http.Request) bool {
			if !isList(r) {
				return false
			}
			w.Header().Set("Content-Type", "application/xml")
			_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`)
			entry := []byte(strings.Repeat("<Contents><Key>state/c</Key></Contents>", 1000))
			for written.Load() < beyond {
				n, err := w.Write(entry)
				written.Add(int64(n))
				if err != nil {
					return true
				}
			}
			_, _ = fmt.Fprint(w, `</ListBucketResult>`)
			return true
		}, "the endpoint's answer is longer than", 0},
		{"a new token on every page", func(w http.ResponseWriter, r *http.Request) bool {
			if !isList(r) {
				return false
			}
			listing(w, pages.Add(1), pages.Load() < 3000)
			return true
		}, "more than 1000 pages", 1000},
	}
	t.Run("an object that is a web page", func(t *testing.T) {
		// S3 answers it as text/html (the server sniffs the type), with its request id: it reads.
		p, err := vfs.NewContext(nil).WithS3(s3store.New(srv.Settings())).ParsePath("s3://" + srv.NewBucket(t) + "/state")
		require.NoError(t, err)
		page := []byte("<html><body>kept</body></html>")
		require.NoError(t, p.Join("page").WriteFile(page))
		got, err := p.Join("page").ReadFile()
		require.NoError(t, err)
		assert.Equal(t, page, got)
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			written.Store(0)
			pages.Store(0)
			settings := srv.Proxy(t, tt.fault)
			settings.Timeout = time.Minute
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + srv.NewBucket(t) + "/state")
			require.NoError(t, err)
			_, err = p.ReadDir()
			require.Error(t, err)
			assert.ErrorIs(t, err, s3store.ErrNotS3)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "at S3_ENDPOINT "+settings.Endpoint)
			// The socket buffers hold some beyond what the client read: the bound is what matters.
			assert.Less(t, written.Load(), int64(2*(vfs.MaxFileSize+1<<20)), "bytes the endpoint could send")
			if tt.wantPages > 0 {
				assert.Equal(t, tt.wantPages, pages.Load(), "pages asked for")
			}
		})
	}
}

// TestS3LockOnAnInconsistentServer: a server that answers 412 to the lock's create and 404 to its
// read is asked with a growing pause and given up on at the lock wait, with its own error. The
// fault gives in after many rounds, so the code before the bound ends too.
func TestS3LockOnAnInconsistentServer(t *testing.T) {
	srv := s3test.Shared(t)
	var asked atomic.Int64
	settings := srv.Proxy(t, func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasSuffix(r.URL.Path, vfs.LockSuffix) || asked.Add(1) > 2000 {
			return false
		}
		switch r.Method {
		case http.MethodPut:
			s3test.WriteError(w, http.StatusPreconditionFailed, "PreconditionFailed")
		default:
			s3test.WriteError(w, http.StatusNotFound, "NoSuchKey")
		}
		return true
	})
	settings.LockWait = 2 * time.Second
	p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + srv.NewBucket(t) + "/state")
	require.NoError(t, err)
	unlock, err := p.Join(".kops" + vfs.LockSuffix).Lock()
	if err == nil {
		unlock()
	}
	require.Error(t, err)
	assert.ErrorIs(t, err, s3store.ErrLockInconsistent)
	assert.Contains(t, err.Error(), "refused as if it existed (412) while reading it found none (404)")
	// The pause doubles from 50ms to 1s: about ten rounds of two requests fit in the 2s wait.
	assert.LessOrEqual(t, asked.Load(), int64(30), "requests for the lock object")
}
