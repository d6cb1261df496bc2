package vfs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3Settings is what an s3:// store needs from outside: the cmd edge reads it from the environment
// (kops's S3_* variables and the AWS default chain) and hands it down as a value, so nothing below
// cmd/ reads the environment.
type S3Settings struct {
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
	// Timeout bounds each request to S3, retries included; 0 is DefaultS3Timeout.
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
	// DefaultS3Timeout bounds one S3 request, retries included: an unreachable endpoint fails
	// within it instead of hanging the command.
	DefaultS3Timeout = 30 * time.Second
	// DefaultLeaseDuration is how long a store lock lasts unless its holder renews it. A holder
	// renews it every third of that while it runs.
	DefaultLeaseDuration = 30 * time.Second
	// DefaultLockWait is how long a command waits for another's lease before giving up.
	DefaultLockWait = 5 * time.Minute
)

func (s *S3Settings) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultS3Timeout
}

func (s *S3Settings) lease() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLeaseDuration
}

func (s *S3Settings) lockWait() time.Duration {
	if s.LockWait > 0 {
		return s.LockWait
	}
	return DefaultLockWait
}

// s3Stores makes one client per bucket and keeps it for the command's lifetime: the bucket's region
// is looked up once, not per request.
type s3Stores struct {
	settings S3Settings
	mu       sync.Mutex
	buckets  map[string]*s3Bucket
}

func newS3Stores(s S3Settings) *s3Stores {
	return &s3Stores{settings: s, buckets: map[string]*s3Bucket{}}
}

func (st *s3Stores) bucket(name string) *s3Bucket {
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
	settings *S3Settings
	stores   *s3Stores

	once   sync.Once
	client *s3.Client
	region string
	err    error
}

// parseS3 turns "bucket/prefix" (what follows s3://) into a path.
func parseS3(s, rest string, stores *s3Stores) (Path, error) {
	bucket, prefix, _ := strings.Cut(rest, "/")
	if err := checkBucketName(bucket); err != nil {
		return nil, fmt.Errorf("state store %q: %w", s, err)
	}
	if strings.ContainsAny(rest, "?#\\") {
		return nil, fmt.Errorf("state store %q: an s3 URL takes no query (?), fragment (#) or backslash; name a bucket and a prefix, e.g. s3://my-bucket/kops", s)
	}
	if stores == nil {
		return nil, fmt.Errorf("state store %q: s3:// needs S3 settings, which this command does not read (kops reads them from its environment, see docs/state-store.md)", s)
	}
	root := s3Path{b: stores.bucket(bucket)}
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return root, nil
	}
	for _, part := range strings.Split(prefix, "/") {
		if part == "" || part == "." || part == ".." {
			return nil, fmt.Errorf("state store %q: the prefix %q has an empty, \".\" or \"..\" part", s, prefix)
		}
	}
	return s3Path{b: root.b, key: prefix}, nil
}

// checkBucketName applies S3's rules for bucket names (3 to 63 lowercase letters, digits, dots and
// hyphens, starting and ending with a letter or digit), so a typo fails here with the rule, not
// later with an opaque answer from the server.
func checkBucketName(b string) error {
	if b == "" {
		return errors.New("no bucket: s3 URLs name one, e.g. s3://my-bucket/kops")
	}
	if len(b) < 3 || len(b) > 63 {
		return fmt.Errorf("bucket %q: a bucket name has 3 to 63 characters", b)
	}
	for i, c := range b {
		ok := 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || (c == '.' || c == '-') && i > 0 && i < len(b)-1
		if !ok {
			return fmt.Errorf("bucket %q: a bucket name is lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit", b)
		}
	}
	return nil
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
