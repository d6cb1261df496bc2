// Package s3api is the S3 REST calls the s3:// state store makes, and no more: get, put and
// delete an object (with If-Match and If-None-Match), head an object or a bucket, and list keys.
// Requests are signed with Signature V4 (package sigv4) and retried as AWS's SDKs retry them
// (package awshttp). It addresses AWS virtual-hosted style, and an S3-compatible server (an
// explicit endpoint) path-style.
package s3api

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"k8s.io/kops/util/pkg/aws/awshttp"
	"k8s.io/kops/util/pkg/aws/partition"
	"k8s.io/kops/util/pkg/aws/sigv4"
)

// Client calls S3 in one region.
type Client struct {
	// HTTP carries the requests; it must not follow redirects (New's does not): S3 answers a
	// request for a bucket in another region with one, which the caller reads.
	HTTP *http.Client
	// Credentials returns the keys to sign with (a cache: it is called once for every call, before
	// its attempts). Its failure is returned as a *CredentialsError, never retried here: the chain
	// retries its own requests.
	Credentials func(context.Context) (sigv4.Credentials, error)
	// Region is the one requests are signed for and, on AWS, sent to.
	Region string
	// Endpoint is an S3-compatible server's URL, addressed path-style; empty is AWS.
	Endpoint string
	Retry    awshttp.Retry
	// Now is the signing clock; nil is time.Now.
	Now func() time.Time
}

// NoRedirects makes an HTTP client hand redirects to its caller.
func NoRedirects(c *http.Client) *http.Client {
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// Object is a GetObject answer: the body is the caller's to close.
type Object struct {
	Body          io.ReadCloser
	ContentLength int64
	ETag          string
	LastModified  time.Time
	// Date is the server's clock when it answered (zero if it did not say).
	Date time.Time
}

// GetObject reads key.
func (c *Client) GetObject(ctx context.Context, bucket, key string) (*Object, error) {
	resp, err := c.do(ctx, http.MethodGet, bucket, key, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	o := &Object{Body: resp.Body, ContentLength: resp.ContentLength, ETag: resp.Header.Get("ETag")}
	o.LastModified, _ = http.ParseTime(resp.Header.Get("Last-Modified"))
	o.Date, _ = http.ParseTime(resp.Header.Get("Date"))
	return o, nil
}

// PutObject writes key, only if it is absent (ifNoneMatch "*") or has the ETag ifMatch when they
// are set, and returns the new object's ETag.
func (c *Client) PutObject(ctx context.Context, bucket, key string, data []byte, ifMatch, ifNoneMatch string) (string, error) {
	h := http.Header{}
	if ifMatch != "" {
		h.Set("If-Match", ifMatch)
	}
	if ifNoneMatch != "" {
		h.Set("If-None-Match", ifNoneMatch)
	}
	resp, err := c.do(ctx, http.MethodPut, bucket, key, nil, h, data)
	if err != nil {
		return "", err
	}
	discard(resp)
	return resp.Header.Get("ETag"), nil
}

// HeadObject returns key's ETag.
func (c *Client) HeadObject(ctx context.Context, bucket, key string) (string, error) {
	resp, err := c.do(ctx, http.MethodHead, bucket, key, nil, nil, nil)
	if err != nil {
		return "", err
	}
	discard(resp)
	return resp.Header.Get("ETag"), nil
}

// DeleteObject deletes key, only if it has the ETag ifMatch when that is set.
func (c *Client) DeleteObject(ctx context.Context, bucket, key, ifMatch string) error {
	h := http.Header{}
	if ifMatch != "" {
		h.Set("If-Match", ifMatch)
	}
	resp, err := c.do(ctx, http.MethodDelete, bucket, key, nil, h, nil)
	if err != nil {
		return err
	}
	discard(resp)
	return nil
}

// HeadBucket checks the bucket is there and returns its region as S3 names it (empty if not).
// A failure's *awshttp.APIError carries the header, where S3 names the region too.
func (c *Client) HeadBucket(ctx context.Context, bucket string) (string, error) {
	resp, err := c.do(ctx, http.MethodHead, bucket, "", nil, nil, nil)
	if err != nil {
		return "", err
	}
	discard(resp)
	return resp.Header.Get("X-Amz-Bucket-Region"), nil
}

// ListInput is one ListObjectsV2 page's request.
type ListInput struct {
	Bucket, Prefix, Delimiter string
	// MaxKeys bounds the keys of the page; 0 is S3's default (1000).
	MaxKeys           int
	ContinuationToken string
}

// ListPage is one page of keys below a prefix.
type ListPage struct {
	Keys           []string
	CommonPrefixes []string
	// NextContinuationToken asks for the next page; empty when this one is the last.
	NextContinuationToken string
}

// ListObjectsV2 lists one page of keys.
func (c *Client) ListObjectsV2(ctx context.Context, in ListInput) (*ListPage, error) {
	q := url.Values{"list-type": {"2"}, "prefix": {in.Prefix}}
	if in.Delimiter != "" {
		q.Set("delimiter", in.Delimiter)
	}
	if in.MaxKeys > 0 {
		q.Set("max-keys", strconv.Itoa(in.MaxKeys))
	}
	if in.ContinuationToken != "" {
		q.Set("continuation-token", in.ContinuationToken)
	}
	resp, err := c.do(ctx, http.MethodGet, in.Bucket, "", q, nil, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var doc struct {
		IsTruncated bool `xml:"IsTruncated"`
		Contents    []struct {
			Key string `xml:"Key"`
		} `xml:"Contents"`
		CommonPrefixes []struct {
			Prefix string `xml:"Prefix"`
		} `xml:"CommonPrefixes"`
		NextContinuationToken string `xml:"NextContinuationToken"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decoding the listing of s3://%s/%s: %w", in.Bucket, in.Prefix, err)
	}
	page := &ListPage{}
	for _, o := range doc.Contents {
		page.Keys = append(page.Keys, o.Key)
	}
	for _, p := range doc.CommonPrefixes {
		page.CommonPrefixes = append(page.CommonPrefixes, p.Prefix)
	}
	if doc.IsTruncated && doc.NextContinuationToken != in.ContinuationToken {
		page.NextContinuationToken = doc.NextContinuationToken
	}
	return page, nil
}

// discard drains and closes a body the caller does not read, so its connection is reused.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// do sends one signed call, retried; an answer other than 2xx is an *awshttp.APIError.
func (c *Client) do(ctx context.Context, method, bucket, key string, query url.Values, header http.Header, body []byte) (*http.Response, error) {
	u, err := c.URL(bucket, key)
	if err != nil {
		return nil, err
	}
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	creds, err := c.Credentials(ctx)
	if err != nil {
		return nil, &CredentialsError{Err: err}
	}
	var resp *http.Response
	err = c.Retry.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
		if err != nil {
			return err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		if body != nil {
			req.Body = io.NopCloser(bytes.NewReader(body))
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			req.ContentLength = int64(len(body))
		}
		// What AWS's SDKs send too: the payload's hash, and no compressed answers (a body's length
		// is then the object's, which a read checks before reading).
		hash := sigv4.PayloadHash(body)
		req.Header.Set("X-Amz-Content-Sha256", hash)
		req.Header.Set("Accept-Encoding", "identity")
		now := time.Now
		if c.Now != nil {
			now = c.Now
		}
		sigv4.Signer{Service: "s3", Region: c.Region, PathEscapedOnce: true}.Sign(req, creds, hash, now())
		r, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		if r.StatusCode < 200 || r.StatusCode > 299 {
			return awshttp.DecodeError(r)
		}
		resp = r
		return nil
	})
	return resp, err
}

// CredentialsError is a call's failure to get the keys to sign with, before anything was sent
// to S3. It deliberately does not unwrap: an error answer of a credential source (a container
// endpoint's 404, STS's 403) is not S3's, and must not be read as one.
type CredentialsError struct {
	Err error
}

func (e *CredentialsError) Error() string {
	return "getting AWS credentials: " + e.Err.Error()
}

// URL is where a request for key (empty: the bucket) goes: the endpoint's path-style URL, or
// AWS's virtual-hosted one, path-style for a bucket name that is no DNS label (one with dots,
// which a TLS certificate for *.s3.<region>.amazonaws.com does not cover).
func (c *Client) URL(bucket, key string) (*url.URL, error) {
	if c.Endpoint != "" {
		base, err := url.Parse(c.Endpoint)
		if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
			return nil, fmt.Errorf("S3 endpoint %q is not an http(s) URL", awshttp.RedactURL(c.Endpoint))
		}
		p := strings.TrimSuffix(base.EscapedPath(), "/") + "/" + sigv4.EscapePath(bucket)
		if key != "" {
			p += "/" + sigv4.EscapePath(key)
		}
		return parsePath(base.Scheme, base.Host, p)
	}
	host := "s3." + c.Region + "." + partition.Of(c.Region).DNSSuffix
	p := "/"
	if virtualHostable(bucket) {
		host = bucket + "." + host
	} else {
		p += sigv4.EscapePath(bucket)
		if key != "" {
			p += "/"
		}
	}
	return parsePath("https", host, p+sigv4.EscapePath(key))
}

func parsePath(scheme, host, escapedPath string) (*url.URL, error) {
	u := &url.URL{Scheme: scheme, Host: host}
	path, err := url.PathUnescape(escapedPath)
	if err != nil {
		return nil, err
	}
	u.Path, u.RawPath = path, escapedPath
	return u, nil
}

// virtualHostable says whether bucket can be a host name label: 3 to 63 lowercase letters, digits
// and hyphens, starting and ending with a letter or digit, and no dots.
func virtualHostable(bucket string) bool {
	if len(bucket) < 3 || len(bucket) > 63 {
		return false
	}
	for i := 0; i < len(bucket); i++ {
		c := bucket[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && i > 0 && i < len(bucket)-1:
		default:
			return false
		}
	}
	return true
}
