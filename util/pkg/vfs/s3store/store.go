// Package s3store is the s3:// state store: a vfs.Path per object of a bucket, on the AWS SDK, in
// kops's layout. It is apart from util/pkg/vfs because the SDK's packages cost every start of a
// binary that links them; only the commands that read s3:// stores (kops, channels) link this one,
// and hand New's store to their vfs.Context at the cmd edge.
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
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

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
	LoadDefault func(context.Context) (aws.Config, error)
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
	client *s3.Client
	region string
	err    error
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
	case s.LoadDefault != nil && !static:
		var err error
		if cfg, err = s.LoadDefault(ctx); err != nil {
			return nil, "", fmt.Errorf("loading AWS configuration for s3://%s: %w", b.name, err)
		}
	case !static:
		return nil, "", fmt.Errorf("s3://%s: no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure the AWS credential chain", b.name)
	}
	if static {
		cfg.Credentials = credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretAccessKey, "")
	}
	if s.Region != "" {
		cfg.Region = s.Region
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // where S3 answers for any bucket, naming the bucket's own region
	}
	cfg.HTTPClient = b.httpClient()
	client := b.newClient(cfg, cfg.Region)
	if s.Endpoint != "" {
		return client, cfg.Region, nil // an S3-compatible server has one region: the one given
	}
	region, err := bucketRegion(ctx, client, b.name)
	if err != nil {
		return nil, "", b.describe("HeadBucket", "", err)
	}
	if region != "" && region != cfg.Region {
		client = b.newClient(cfg, region)
		return client, region, nil
	}
	return client, cfg.Region, nil
}

func (b *s3Bucket) newClient(cfg aws.Config, region string) *s3.Client {
	s := b.settings
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.Region = region
		if s.Endpoint != "" {
			o.BaseEndpoint = aws.String(s.Endpoint)
			o.UsePathStyle = true // S3-compatible servers rarely have a DNS name per bucket
		}
		// Checksums only where S3 requires them: S3-compatible servers differ in what they accept.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
}

// httpClient bounds connecting, so an unreachable endpoint fails fast enough for the retries to
// fit in one request's timeout.
func (b *s3Bucket) httpClient() *http.Client {
	rt := b.settings.Transport
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		t.MaxIdleConnsPerHost = 64 // parallel reads of many clusters reuse their connections
		t.ResponseHeaderTimeout = b.settings.timeout()
		rt = t
	}
	return &http.Client{Transport: rt}
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
