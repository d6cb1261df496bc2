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

package s3store

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"k8s.io/kops/util/pkg/vfs"
)

const (
	// maxResponse bounds every answer's body: the largest is an object of the state store's limit;
	// a listing page of 1,000 keys is far smaller. The SDK decodes answers without a bound.
	maxResponse = vfs.MaxFileSize + 1<<20
	// maxListPages and maxListedKeyBytes bound one listing: a server handing out a new
	// continuation token on every page would otherwise be listed forever.
	maxListPages      = 1000
	maxListedKeyBytes = vfs.MaxFileSize
)

// ErrNotS3 is an answer no S3 server gives: a web page, or a body beyond any S3 answer's size.
var ErrNotS3 = errors.New("not an S3 answer")

// notS3Error says what in the answer was not S3's; it is never retried: asking again gets the same.
type notS3Error struct{ detail string }

func (e *notS3Error) Error() string        { return e.detail }
func (e *notS3Error) RetryableError() bool { return false }

// boundedTransport refuses web pages and caps every body at maxResponse.
type boundedTransport struct{ next http.RoundTripper }

func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	// An S3 server answers errors in XML with a request id; a 5xx page may be a proxy's, and is retried.
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mediaType == "text/html" && resp.StatusCode < 500 && resp.Header.Get("X-Amz-Request-Id") == "" {
		_ = resp.Body.Close()
		return nil, &notS3Error{detail: fmt.Sprintf("the endpoint answered with a web page (HTTP %d, text/html)", resp.StatusCode)}
	}
	resp.Body = &cappedBody{body: resp.Body, left: maxResponse}
	return resp, nil
}

type cappedBody struct {
	body io.ReadCloser
	left int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, &notS3Error{detail: fmt.Sprintf("the endpoint's answer is longer than %d bytes", int64(maxResponse))}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.body.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedBody) Close() error { return c.body.Close() }
