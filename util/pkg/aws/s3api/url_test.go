package s3api_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/aws/s3api"
	"k8s.io/kops/util/pkg/aws/sigv4"
)

// captured stops every request at the transport and keeps it.
type captured struct{ reqs []*http.Request }

var errStopped = errors.New("stopped")

func (c *captured) RoundTrip(r *http.Request) (*http.Response, error) {
	c.reqs = append(c.reqs, r)
	return nil, errStopped
}

// TestRequestsMatchSDK sends the same calls through this client and the SDK's S3 client (with
// the options the store used), stops both at the transport, and expects the same method, URL
// (host, escaped path, query) and conditional headers: addressing is derived from what the SDK
// does, over regions of every partition, buckets with dots, and odd keys.
func TestRequestsMatchSDK(t *testing.T) {
	keys := []string{"state/c1/config", "a b/c+d=e~f", "ünï/鍵", "x?y#z", "%41", "dir/"}
	type call struct {
		name string
		sdk  func(c *s3.Client, bucket, key string) error
		ours func(c *s3api.Client, bucket, key string) error
	}
	ctx := context.Background()
	calls := []call{
		{"GetObject", func(c *s3.Client, b, k string) error {
			_, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: &b, Key: &k})
			return err
		}, func(c *s3api.Client, b, k string) error { _, err := c.GetObject(ctx, b, k); return err }},
		{"PutObject If-None-Match", func(c *s3.Client, b, k string) error {
			_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &b, Key: &k, IfNoneMatch: aws.String("*")})
			return err
		}, func(c *s3api.Client, b, k string) error {
			_, err := c.PutObject(ctx, b, k, []byte{}, "", "*")
			return err
		}},
		{"DeleteObject If-Match", func(c *s3.Client, b, k string) error {
			_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b, Key: &k, IfMatch: aws.String(`"e1"`)})
			return err
		}, func(c *s3api.Client, b, k string) error { return c.DeleteObject(ctx, b, k, `"e1"`) }},
		{"HeadObject", func(c *s3.Client, b, k string) error {
			_, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b, Key: &k})
			return err
		}, func(c *s3api.Client, b, k string) error { _, err := c.HeadObject(ctx, b, k); return err }},
		{"HeadBucket", func(c *s3.Client, b, _ string) error {
			_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &b})
			return err
		}, func(c *s3api.Client, b, _ string) error { _, err := c.HeadBucket(ctx, b); return err }},
		{"ListObjectsV2", func(c *s3.Client, b, k string) error {
			_, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &b, Prefix: &k, Delimiter: aws.String("/"), MaxKeys: aws.Int32(1), ContinuationToken: aws.String("t/" + k)})
			return err
		}, func(c *s3api.Client, b, k string) error {
			_, err := c.ListObjectsV2(ctx, s3api.ListInput{Bucket: b, Prefix: k, Delimiter: "/", MaxKeys: 1, ContinuationToken: "t/" + k})
			return err
		}},
	}
	for _, endpoint := range []string{"", "http://127.0.0.1:8333", "https://s3.example.com:9000/base"} {
		for _, region := range []string{"us-east-1", "eu-west-1", "cn-north-1", "us-gov-west-1"} {
			for _, bucket := range []string{"my-bucket", "my.dotted.bucket", "abc"} {
				for _, c := range calls {
					for _, key := range keys {
						t.Run(endpoint+"/"+region+"/"+bucket+"/"+c.name+"/"+key, func(t *testing.T) {
							var theirs, ours captured
							sdk := s3.New(s3.Options{
								Region: region, HTTPClient: &http.Client{Transport: &theirs}, RetryMaxAttempts: 1,
								Credentials:                credentials.NewStaticCredentialsProvider("AKID", "secret", ""),
								RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
								ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
							}, func(o *s3.Options) {
								if endpoint != "" {
									o.BaseEndpoint, o.UsePathStyle = aws.String(endpoint), true
								}
							})
							our := &s3api.Client{HTTP: &http.Client{Transport: &ours}, Region: region, Endpoint: endpoint,
								Credentials: func(context.Context) (sigv4.Credentials, error) {
									return sigv4.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}, nil
								}}
							our.Retry.MaxAttempts = 1
							require.ErrorIs(t, c.sdk(sdk, bucket, key), errStopped)
							require.ErrorIs(t, c.ours(our, bucket, key), errStopped)
							require.Len(t, theirs.reqs, 1)
							require.Len(t, ours.reqs, 1)
							want, got := theirs.reqs[0], ours.reqs[0]
							assert.Equal(t, want.Method, got.Method)
							assert.Equal(t, want.URL.Scheme+"://"+want.URL.Host+want.URL.EscapedPath(), got.URL.Scheme+"://"+got.URL.Host+got.URL.EscapedPath())
							wq, gq := want.URL.Query(), got.URL.Query()
							wq.Del("x-id") // the SDK names the operation in the query; S3 ignores it
							assert.Equal(t, wq, gq)
							for _, h := range []string{"If-Match", "If-None-Match", "Content-Length"} {
								assert.Equal(t, want.Header.Get(h), got.Header.Get(h), h)
							}
							// Over TLS the SDK leaves a PUT's payload unsigned; ours signs its hash
							// always, which S3 checks too: stricter, never weaker.
							if sum := want.Header.Get("X-Amz-Content-Sha256"); sum != "UNSIGNED-PAYLOAD" {
								assert.Equal(t, sum, got.Header.Get("X-Amz-Content-Sha256"))
							}
							assert.Equal(t, sigv4.EmptyPayloadHash, got.Header.Get("X-Amz-Content-Sha256"))
						})
					}
				}
			}
		}
	}
}
