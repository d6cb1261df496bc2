package s3store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"

	"k8s.io/kops/util/pkg/aws/awshttp"
	"k8s.io/kops/util/pkg/aws/s3api"
	"k8s.io/kops/util/pkg/vfs"
)

var (
	// ErrNoBucket is returned, wrapped, when the bucket of an s3:// store does not exist.
	ErrNoBucket = errors.New("no such bucket")
	// ErrAccessDenied is returned, wrapped, when S3 refuses the credentials in use an action.
	ErrAccessDenied = errors.New("access denied")
	// ErrUnreachable is returned, wrapped, when the S3 endpoint does not answer in time.
	ErrUnreachable = errors.New("S3 endpoint unreachable")
	// ErrCredentials is returned, wrapped, when the AWS credentials could not be obtained, so no
	// request reached S3.
	ErrCredentials = errors.New("no AWS credentials for S3")
)

// iamAction is the permission each call needs, named as an IAM policy names it, so that an access
// denied error says what to grant.
var iamAction = map[string]string{
	"GetObject":     "s3:GetObject",
	"HeadObject":    "s3:GetObject",
	"PutObject":     "s3:PutObject",
	"DeleteObject":  "s3:DeleteObject",
	"ListObjectsV2": "s3:ListBucket",
	"HeadBucket":    "s3:ListBucket",
}

// describe turns an error of the call op on key (empty for the bucket) into one a user can act on.
// It names the bucket, key and action, never a credential: the client's own message is kept only
// where it carries none (a code and a message from the server, or a network error).
func (b *s3Bucket) describe(op, key string, err error) error {
	where := "s3://" + b.name
	if key != "" {
		where += "/" + key
	}
	// Checked first: a credential source's answer (a container endpoint's 404, STS's 403) is not
	// S3's, and read as S3's it would say the file is missing or the key lacks a permission.
	var credErr *s3api.CredentialsError
	if errors.As(err, &credErr) {
		return fmt.Errorf("%w: %s on %s: %v; fix the source named there, or set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to use static keys instead",
			ErrCredentials, op, where, credErr.Err)
	}
	var apiErr *awshttp.APIError
	code, status := "", 0
	if errors.As(err, &apiErr) {
		code, status = apiErr.Code, apiErr.StatusCode
	}
	switch {
	case code == "NoSuchKey" || (status == http.StatusNotFound && key != "" && code != "NoSuchBucket"):
		return &fs.PathError{Op: op, Path: where, Err: fs.ErrNotExist}
	case code == "NoSuchBucket" || status == http.StatusNotFound:
		return fmt.Errorf("%w: bucket %q does not exist (or is not visible to these credentials)%s; create it first, e.g. `aws s3 mb s3://%s`",
			ErrNoBucket, b.name, b.endpointNote(), b.name)
	case code == "PreconditionFailed" || code == "ConditionalRequestConflict" || status == http.StatusPreconditionFailed:
		return &fs.PathError{Op: op, Path: where, Err: vfs.ErrPrecondition}
	case code == "AccessDenied" || status == http.StatusForbidden:
		return fmt.Errorf("%w: %s on %s: the credentials in use lack that permission (or the bucket belongs to another account)%s",
			ErrAccessDenied, iamAction[op], where, b.endpointNote())
	case status == http.StatusMovedPermanently || code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed":
		return fmt.Errorf("%s: the bucket is in another region than %q, and S3 did not say which; set S3_REGION (or AWS_REGION) to the bucket's region", where, b.region)
	case awshttp.Classify(err) == awshttp.Certificate:
		return fmt.Errorf("%s%s: the server's TLS certificate is not trusted: %v; set AWS_CA_BUNDLE (or ca_bundle in the AWS profile) to a PEM file of the CA that issued it",
			where, b.endpointNote(), netCause(err))
	case isNetwork(err):
		return fmt.Errorf("%w: %s%s gave no answer within %s: %v", ErrUnreachable, where, b.endpointNote(), b.settings.timeout(), netCause(err))
	case code != "":
		return fmt.Errorf("%s on %s: %s: %s", op, where, code, apiErr.Message)
	}
	return fmt.Errorf("%s on %s: %w", op, where, err)
}

// endpointNote names a custom endpoint, without anything a URL may carry besides host and path.
func (b *s3Bucket) endpointNote() string {
	if b.settings.Endpoint == "" {
		return ""
	}
	return " at S3_ENDPOINT " + awshttp.RedactURL(b.settings.Endpoint)
}

// isNetwork says whether err means no answer came: refused, unresolvable, or timed out.
func isNetwork(err error) bool {
	switch awshttp.Classify(err) {
	case awshttp.Unreachable, awshttp.Unresolvable, awshttp.TimedOut:
		return true
	}
	return false
}

// netCause is the innermost network error, without the HTTP client's wrapping (which repeats the
// URL).
func netCause(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return de
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return context.DeadlineExceeded
	}
	return awshttp.WithoutURL(err)
}

// bucketRegion asks S3 where the bucket is: HeadBucket names it in x-amz-bucket-region, on success
// and on the 301 a wrong region gets alike.
func bucketRegion(ctx context.Context, c *s3api.Client, bucket string) (string, error) {
	region, err := c.HeadBucket(ctx, bucket)
	if err == nil {
		return region, nil
	}
	var apiErr *awshttp.APIError
	if errors.As(err, &apiErr) {
		if r := apiErr.Header.Get("X-Amz-Bucket-Region"); r != "" {
			return r, nil
		}
	}
	return "", err
}
