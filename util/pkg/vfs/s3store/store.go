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
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"k8s.io/kops/util/pkg/vfs"
)

// Settings is what an s3:// store needs from outside: the cmd edge reads it from the environment
// (kops's S3_* variables, KOPS_STATE_S3_ACL) and hands it down as a value, with the function that
// loads the AWS SDK's default configuration, so nothing below cmd/ reads the environment.
type Settings struct {
	// Endpoint is an S3-compatible server (kops's S3_ENDPOINT), addressed path-style; empty is
	// AWS (or the endpoint the SDK's configuration names, e.g. AWS_ENDPOINT_URL_S3).
	Endpoint string
	// Region is kops's S3_REGION: the region requests are signed for. Empty: the default chain's
	// region, then the bucket's own region as S3 reports it.
	Region string
	// AccessKeyID and SecretAccessKey are kops's S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; both
	// empty means the AWS default configuration (LoadDefault). They are never printed.
	AccessKeyID     string
	SecretAccessKey string
	// ACL is a canned ACL (kops's KOPS_STATE_S3_ACL, e.g. bucket-owner-full-control) set on every
	// object the store writes; empty sets none.
	ACL string
	// LoadDefault loads the AWS SDK's default configuration (credential chain, region, endpoint
	// settings, CA bundle). The cmd edge supplies it, since it reads the environment and ~/.aws;
	// nil means static keys only.
	LoadDefault func(context.Context) (aws.Config, error)
	// Timeout bounds each request to S3, retries included; 0 is DefaultTimeout.
	Timeout time.Duration
	// Lease is how long a store lock (Lock) lasts without renewal; 0 is DefaultLeaseDuration. A
	// killed command's lock is taken over once it has expired.
	Lease time.Duration
	// LockWait bounds how long Lock waits for a lease another command holds; 0 is DefaultLockWait.
	LockWait time.Duration
	// Transport, if set, carries every request to S3 (tests record them).
	Transport http.RoundTripper
}

const (
	// DefaultTimeout bounds one S3 request, retries included: an unreachable endpoint fails
	// within it instead of hanging the command.
	DefaultTimeout = 30 * time.Second
	// DefaultLeaseDuration is how long a store lock lasts unless its holder renews it. A holder
	// renews it every third of that while it runs.
	DefaultLeaseDuration = 30 * time.Second
	// DefaultLockWait is how long a command waits for another's lease before giving up.
	DefaultLockWait = 5 * time.Minute
)

func (s *Settings) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

func (s *Settings) lease() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLeaseDuration
}

func (s *Settings) lockWait() time.Duration {
	if s.LockWait > 0 {
		return s.LockWait
	}
	return DefaultLockWait
}

// Store opens s3:// paths (it is the vfs.S3 of a Context). It makes one client per bucket and
// keeps it for the command's lifetime: the bucket's region is looked up once, not per request.
type Store struct {
	settings Settings
	mu       sync.Mutex
	buckets  map[string]*s3Bucket
}

// New is a store with settings, read by the cmd edge. It does no work: the SDK's configuration is
// loaded on the first request to a bucket.
func New(s Settings) *Store {
	return &Store{settings: s, buckets: map[string]*s3Bucket{}}
}

// Path is key in bucket (vfs.Context.ParsePath has checked both).
func (st *Store) Path(bucket, key string) vfs.Path { return s3Path{b: st.bucket(bucket), key: key} }

func (st *Store) bucket(name string) *s3Bucket {
	st.mu.Lock()
	defer st.mu.Unlock()
	b := st.buckets[name]
	if b == nil {
		b = &s3Bucket{name: name, settings: &st.settings, stores: st}
		st.buckets[name] = b
	}
	return b
}

// s3Bucket is one bucket's client, made on first use.
type s3Bucket struct {
	name     string
	settings *Settings
	stores   *Store

	once   sync.Once
	client *s3.Client
	region string
	err    error

	// encryption is what the bucket says of its default encryption, asked once (encryption.go).
	encryption bucketEncryption
}

// get returns the bucket's client, made on first use: credentials and region from the settings,
// then the bucket's own region when S3 reports another (a 301 redirect on AWS).
func (b *s3Bucket) get() (*s3.Client, error) {
	b.once.Do(func() { b.client, b.region, b.err = b.connect() })
	return b.client, b.err
}

func (b *s3Bucket) connect() (*s3.Client, string, error) {
	s := b.settings
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
	defer cancel()
	var cfg aws.Config
	static := s.AccessKeyID != "" || s.SecretAccessKey != ""
	switch {
	case static && (s.AccessKeyID == "" || s.SecretAccessKey == ""):
		return nil, "", errors.New("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither")
	case static:
		keys := aws.Credentials{AccessKeyID: s.AccessKeyID, SecretAccessKey: s.SecretAccessKey, Source: "S3_ACCESS_KEY_ID"}
		cfg.Credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) { return keys, nil })
	case s.LoadDefault != nil:
		var err error
		if cfg, err = s.LoadDefault(ctx); err != nil {
			return nil, "", fmt.Errorf("%w: loading the AWS configuration for s3://%s: %v", ErrCredentials, b.name, err)
		}
		if cfg.Credentials == nil {
			return nil, "", fmt.Errorf("%w: s3://%s: the AWS configuration has no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure the AWS credential chain", ErrCredentials, b.name)
		}
		cfg.Credentials = credentialSource{cfg.Credentials}
	default:
		return nil, "", fmt.Errorf("%w: s3://%s: no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure the AWS credential chain", ErrCredentials, b.name)
	}
	if s.Region != "" {
		cfg.Region = s.Region
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // where S3 answers for any bucket, naming the bucket's own region
	}
	httpClient := b.httpClient(cfg.HTTPClient)
	options := func(region string) func(*s3.Options) {
		return func(o *s3.Options) {
			o.Region = region
			o.HTTPClient = httpClient
			// Objects kops (or any older tool) wrote carry no checksum: the SDK would log a line
			// on the command's stderr for every such read.
			o.DisableLogOutputChecksumValidationSkipped = true
			if s.Endpoint != "" {
				// S3_ENDPOINT wins over the endpoint settings of the SDK's configuration
				// (AWS_ENDPOINT_URL_S3, FIPS, dual-stack), which name AWS's endpoints.
				o.BaseEndpoint = aws.String(s.Endpoint)
				o.UsePathStyle = true
				o.EndpointOptions.UseFIPSEndpoint = aws.FIPSEndpointStateDisabled
				o.EndpointOptions.UseDualStackEndpoint = aws.DualStackEndpointStateDisabled
			}
		}
	}
	client := s3.NewFromConfig(cfg, options(cfg.Region))
	if s.Endpoint != "" {
		return client, cfg.Region, nil // an S3-compatible server has one region: the one given
	}
	region, err := bucketRegion(ctx, client, b.name)
	if err != nil {
		return nil, "", b.describe("HeadBucket", "", err)
	}
	if region != "" && region != cfg.Region {
		return s3.NewFromConfig(cfg, options(region)), region, nil
	}
	return client, cfg.Region, nil
}

// httpClient bounds connecting, so an unreachable endpoint fails fast enough for the retries to
// fit in one request's timeout, and hands redirects to the SDK (S3 answers a request for a bucket
// in another region with one, naming the region). It keeps the TLS settings of the SDK's
// configuration (AWS_CA_BUNDLE).
func (b *s3Bucket) httpClient(configured aws.HTTPClient) *http.Client {
	rt := b.settings.Transport
	if rt == nil {
		var t *http.Transport
		if bc, ok := configured.(*awshttp.BuildableClient); ok {
			t = bc.GetTransport() // a copy, with the CA bundle's certificates if one is set
		} else {
			t = http.DefaultTransport.(*http.Transport).Clone()
		}
		t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		t.MaxIdleConnsPerHost = 64 // parallel reads of many clusters reuse their connections
		t.ResponseHeaderTimeout = b.settings.timeout()
		rt = t
	}
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// op runs one S3 call with the request timeout.
func (b *s3Bucket) op(f func(ctx context.Context, c *s3.Client) error) error {
	c, err := b.get()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.settings.timeout())
	defer cancel()
	return f(ctx, c)
}

// credentialSource marks the errors of the default chain's credentials, so that they are reported
// as a credentials problem: an error answer of a credential source (a container endpoint's 404,
// STS's 403) is not S3's, and must not be read as one. Such an error is not retried by the S3
// client either: the chain retries its own requests.
type credentialSource struct {
	aws.CredentialsProvider
}

func (c credentialSource) Retrieve(ctx context.Context) (aws.Credentials, error) {
	creds, err := c.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return creds, &credentialsError{err: err}
	}
	return creds, nil
}

// credentialsError is a failure to get the keys to sign with, before anything was sent to S3. It
// deliberately does not unwrap (see credentialSource).
type credentialsError struct{ err error }

func (e *credentialsError) Error() string { return "getting AWS credentials: " + e.err.Error() }

// RetryableError tells the SDK's retryer not to retry the S3 call for it.
func (e *credentialsError) RetryableError() bool { return false }
