// Package s3store is the s3:// state store: a vfs.Path per object of a bucket, in kops's layout, on
// our own S3 client (util/pkg/aws/s3api). It is apart from util/pkg/vfs so that only the commands
// that read s3:// stores (kops, channels) link it, and hand New's store to their vfs.Context at the
// cmd edge. (It once used the AWS SDK, whose package init cost every start of those commands.)
package s3store

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"k8s.io/kops/util/pkg/aws/s3api"
	"k8s.io/kops/util/pkg/aws/sigv4"
	"k8s.io/kops/util/pkg/vfs"
)

// Settings is what an s3:// store needs from outside: the cmd edge reads it from the environment
// (kops's S3_* variables and the AWS default chain) and hands it down as a value, so nothing below
// cmd/ reads the environment.
type Settings struct {
	// Endpoint is an S3-compatible server (kops's S3_ENDPOINT), addressed path-style; empty is AWS.
	Endpoint string
	// Region is kops's S3_REGION: the region requests are signed for. Empty: the default chain's
	// region, then the bucket's own region as S3 reports it.
	Region string
	// AccessKeyID and SecretAccessKey are kops's S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; both
	// empty means the AWS default credential chain (LoadDefault). They are never printed.
	AccessKeyID     string
	SecretAccessKey string
	// LoadDefault loads the AWS default configuration (credential chain, region). The cmd edge
	// supplies it, since it reads the environment and ~/.aws; nil means static keys only.
	LoadDefault func(context.Context) (AWSConfig, error)
	// Timeout bounds each request to S3, retries included; 0 is DefaultTimeout.
	Timeout time.Duration
	// Lease is how long a store lock (Lock) lasts without renewal; 0 is DefaultLeaseDuration. A
	// killed command's lock is taken over once it has expired.
	Lease time.Duration
	// LockWait bounds how long Lock waits for a lease another command holds; 0 is DefaultLockWait.
	LockWait time.Duration
	// Transport, if set, carries every request (tests count them).
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

// AWSConfig is what the AWS default chain gives a store: its region (empty if it names none) and
// its credentials, fetched when a request is signed (and cached by the chain).
type AWSConfig struct {
	Region      string
	Credentials func(context.Context) (sigv4.Credentials, error)
	// TLS, if set, is the TLS configuration of requests to S3 (AWS_CA_BUNDLE's certificates).
	TLS *tls.Config
}

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

// New is a store with settings, read by the cmd edge.
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
	client *s3api.Client
	region string
	err    error
}

// get returns the bucket's client, made on first use: credentials and region from the settings,
// then the bucket's own region when S3 reports another (a 301 redirect on AWS).
func (b *s3Bucket) get() (*s3api.Client, error) {
	b.once.Do(func() { b.client, b.region, b.err = b.connect() })
	return b.client, b.err
}

func (b *s3Bucket) connect() (*s3api.Client, string, error) {
	s := b.settings
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
	defer cancel()
	var cfg AWSConfig
	static := s.AccessKeyID != "" || s.SecretAccessKey != ""
	switch {
	case static && (s.AccessKeyID == "" || s.SecretAccessKey == ""):
		return nil, "", errors.New("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither")
	case s.LoadDefault != nil && !static:
		var err error
		if cfg, err = s.LoadDefault(ctx); err != nil {
			return nil, "", fmt.Errorf("loading AWS configuration for s3://%s: %w", b.name, err)
		}
	case !static:
		return nil, "", fmt.Errorf("s3://%s: no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure the AWS credential chain", b.name)
	}
	if static {
		keys := sigv4.Credentials{AccessKeyID: s.AccessKeyID, SecretAccessKey: s.SecretAccessKey, Source: "S3_ACCESS_KEY_ID"}
		cfg.Credentials = func(context.Context) (sigv4.Credentials, error) { return keys, nil }
	}
	if s.Region != "" {
		cfg.Region = s.Region
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // where S3 answers for any bucket, naming the bucket's own region
	}
	client := &s3api.Client{HTTP: b.httpClient(cfg.TLS), Credentials: cfg.Credentials, Region: cfg.Region, Endpoint: s.Endpoint}
	if s.Endpoint != "" {
		return client, cfg.Region, nil // an S3-compatible server has one region: the one given
	}
	region, err := bucketRegion(ctx, client, b.name)
	if err != nil {
		return nil, "", b.describe("HeadBucket", "", err)
	}
	if region != "" && region != cfg.Region {
		moved := *client
		moved.Region = region
		return &moved, region, nil
	}
	return client, cfg.Region, nil
}

// httpClient bounds connecting, so an unreachable endpoint fails fast enough for the retries to
// fit in one request's timeout.
func (b *s3Bucket) httpClient(tlsConfig *tls.Config) *http.Client {
	rt := b.settings.Transport
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		if tlsConfig != nil {
			t.TLSClientConfig = tlsConfig
		}
		t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		t.MaxIdleConnsPerHost = 64 // parallel reads of many clusters reuse their connections
		t.ResponseHeaderTimeout = b.settings.timeout()
		rt = t
	}
	return s3api.NoRedirects(&http.Client{Transport: rt})
}

// op runs one S3 call with the request timeout.
func (b *s3Bucket) op(f func(ctx context.Context, c *s3api.Client) error) error {
	c, err := b.get()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.settings.timeout())
	defer cancel()
	return f(ctx, c)
}
