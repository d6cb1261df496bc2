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

// Settings is what an s3:// store needs, read from the environment by the cmd edge (kops's S3_*,
// KOPS_STATE_S3_ACL) so nothing below cmd/ reads it.
type Settings struct {
	// Endpoint is kops's S3_ENDPOINT, addressed path-style; empty is AWS.
	Endpoint string
	// Region is kops's S3_REGION; empty uses the default chain's, then the bucket's own.
	Region string
	// AccessKeyID and SecretAccessKey are S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; empty uses
	// LoadDefault. Never printed.
	AccessKeyID     string
	SecretAccessKey string
	// ACL is KOPS_STATE_S3_ACL, set on every object written; empty sets none.
	ACL string
	// LoadDefault loads the SDK's default configuration; nil means static keys only.
	LoadDefault func(context.Context) (aws.Config, error)
	// Timeout bounds each request, retries included; 0 is DefaultTimeout.
	Timeout time.Duration
	// Lease is a lock's length without renewal; 0 is DefaultLeaseDuration.
	Lease time.Duration
	// LockWait bounds waiting for another's lease; 0 is DefaultLockWait.
	LockWait time.Duration
	// Deadline, when set, ends every request and lock wait by then, whatever Timeout and LockWait
	// leave: a command's own time limit (validate's --timeout).
	Deadline  time.Time
	Transport http.RoundTripper
}

const (
	// DefaultTimeout makes an unreachable endpoint fail instead of hanging the command.
	DefaultTimeout = 30 * time.Second
	// DefaultLeaseDuration: a holder renews every third of it.
	DefaultLeaseDuration = 30 * time.Second
	DefaultLockWait      = 5 * time.Minute
)

func (s *Settings) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// requestContext bounds one request, its retries included, by Timeout and the Deadline.
func (s *Settings) requestContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
	if s.Deadline.IsZero() {
		return ctx, cancel
	}
	bounded, cancelBounded := context.WithDeadline(ctx, s.Deadline)
	return bounded, func() { cancelBounded(); cancel() }
}

// limit says which bound a request that got no answer met.
func (s *Settings) limit() string {
	if !s.Deadline.IsZero() && !time.Now().Before(s.Deadline) {
		return "before the command's time limit"
	}
	return "within " + s.timeout().String()
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

// Store keeps one client per bucket for the command's lifetime, so the region is looked up once.
type Store struct {
	settings Settings
	mu       sync.Mutex
	buckets  map[string]*s3Bucket
}

// New does no work: the SDK's configuration is loaded on the first request.
func New(s Settings) *Store {
	return &Store{settings: s, buckets: map[string]*s3Bucket{}}
}

// Until is the store with every request and lock wait ended by deadline (vfs.Context.Until).
func (st *Store) Until(deadline time.Time) vfs.S3 {
	s := st.settings
	s.Deadline = deadline
	return New(s)
}

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

type s3Bucket struct {
	name     string
	settings *Settings
	stores   *Store

	once   sync.Once
	client *s3.Client
	region string
	err    error

	encryption bucketEncryption
}

// get makes the client on first use, switching to the bucket's own region when S3 reports another.
func (b *s3Bucket) get() (*s3.Client, error) {
	b.once.Do(func() { b.client, b.region, b.err = b.connect() })
	return b.client, b.err
}

func (b *s3Bucket) connect() (*s3.Client, string, error) {
	s := b.settings
	ctx, cancel := s.requestContext()
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
		if cfg, err = s.LoadDefault(ctx); errors.Is(err, ErrSettings) {
			return nil, "", fmt.Errorf("loading the AWS configuration for s3://%s: %w", b.name, err)
		} else if err != nil {
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
			// Objects written by kops carry no checksum: the SDK would log a line for every such read.
			o.DisableLogOutputChecksumValidationSkipped = true
			if s.Endpoint != "" {
				// S3_ENDPOINT wins over the SDK's endpoint settings, which name AWS's endpoints.
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

// httpClient bounds connecting so retries fit one request's timeout, leaves redirects to the SDK,
// and keeps the configured TLS settings (AWS_CA_BUNDLE).
func (b *s3Bucket) httpClient(configured aws.HTTPClient) *http.Client {
	rt := b.settings.Transport
	if rt == nil {
		var t *http.Transport
		if bc, ok := configured.(*awshttp.BuildableClient); ok {
			t = bc.GetTransport()
		} else {
			t = http.DefaultTransport.(*http.Transport).Clone()
		}
		t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		t.MaxIdleConnsPerHost = 64
		t.ResponseHeaderTimeout = b.settings.timeout()
		rt = t
	}
	return &http.Client{Transport: boundedTransport{rt}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (b *s3Bucket) op(f func(ctx context.Context, c *s3.Client) error) error {
	c, err := b.get()
	if err != nil {
		return err
	}
	ctx, cancel := b.settings.requestContext()
	defer cancel()
	return f(ctx, c)
}

// credentialSource marks the default chain's errors as a credentials problem, not S3's answer, and
// stops the S3 client retrying them (the chain retries its own).
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

// credentialsError deliberately does not unwrap (see credentialSource).
type credentialsError struct{ err error }

func (e *credentialsError) Error() string { return "getting AWS credentials: " + e.err.Error() }

func (e *credentialsError) RetryableError() bool { return false }
