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
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"k8s.io/kops/util/pkg/vfs"
)

var (
	// ErrNoBucket is returned, wrapped, when the bucket of an s3:// store does not exist.
	ErrNoBucket = errors.New("no such bucket")
	// ErrAccessDenied is returned, wrapped, when S3 refuses the credentials in use an action.
	ErrAccessDenied = errors.New("access denied")
	// ErrUnreachable is returned, wrapped, when the S3 endpoint does not answer in time.
	ErrUnreachable = errors.New("S3 endpoint unreachable")
	// ErrCredentials is returned, wrapped, when the AWS credentials could not be obtained (so no
	// request reached S3), or S3 does not know them or their secret.
	ErrCredentials = errors.New("no usable AWS credentials for S3")
	// ErrWrongRegion is returned, wrapped, when requests are signed for another region than the
	// bucket's.
	ErrWrongRegion = errors.New("wrong region")
	// ErrClockSkew is returned, wrapped, when S3 refuses a request's time: this machine's clock is off.
	ErrClockSkew = errors.New("clock skew")
	// ErrCertificate is returned, wrapped, when the endpoint's TLS certificate is not trusted.
	ErrCertificate = errors.New("untrusted TLS certificate")
)

// iamAction is the permission each call needs, named as an IAM policy names it, so that an access
// denied error says what to grant.
var iamAction = map[string]string{
	"GetObject":           "s3:GetObject",
	"HeadObject":          "s3:GetObject",
	"PutObject":           "s3:PutObject",
	"DeleteObject":        "s3:DeleteObject",
	"ListObjectsV2":       "s3:ListBucket",
	"HeadBucket":          "s3:ListBucket",
	"GetBucketEncryption": "s3:GetEncryptionConfiguration",
}

// apiAnswer is what S3 answered a failed call: its error code (for an answer without a body, such
// as HEAD's, the SDK names the status), its message, HTTP status and header.
type apiAnswer struct {
	code, message string
	status        int
	header        http.Header
}

func answerOf(err error) apiAnswer {
	var a apiAnswer
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		a.code, a.message = apiErr.ErrorCode(), apiErr.ErrorMessage()
	}
	var respErr *smithyhttp.ResponseError
	if errors.As(err, &respErr) && respErr.Response != nil {
		a.status, a.header = respErr.HTTPStatusCode(), respErr.Response.Header
	}
	return a
}

// describe turns an error of the call op on key (empty for the bucket) into one a user can act on,
// by its cause. It names the bucket, key and action, never a credential: the SDK's own message is
// kept only where it carries none (a code and a message from the server, or a network error).
func (b *s3Bucket) describe(op, key string, err error) error {
	where := "s3://" + b.name
	if key != "" {
		where += "/" + key
	}
	// Checked first: a credential source's answer (a container endpoint's 404, STS's 403) is not
	// S3's, and read as S3's it would say the file is missing or the key lacks a permission.
	var credErr *credentialsError
	if errors.As(err, &credErr) {
		return fmt.Errorf("%w: %s on %s: %v; fix the source named there, or set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to use static keys instead",
			ErrCredentials, op, where, credErr.err)
	}
	a := answerOf(err)
	switch {
	case a.code == "NoSuchKey" || (a.status == http.StatusNotFound && key != "" && a.code != "NoSuchBucket"):
		return &fs.PathError{Op: op, Path: where, Err: fs.ErrNotExist}
	case a.code == "NoSuchBucket" || a.status == http.StatusNotFound:
		return fmt.Errorf("%w: bucket %q does not exist (or is not visible to these credentials)%s; create it first, e.g. `aws s3 mb s3://%s`",
			ErrNoBucket, b.name, b.endpointNote(), b.name)
	case a.code == "PreconditionFailed" || a.code == "ConditionalRequestConflict" || a.status == http.StatusPreconditionFailed:
		return &fs.PathError{Op: op, Path: where, Err: vfs.ErrPrecondition}
	case a.code == "RequestTimeTooSkewed" || a.code == "RequestExpired":
		return fmt.Errorf("%w: %s on %s: S3 refused the request's time (%s): this machine's clock is off by more than S3 allows (15 minutes); set it right (e.g. with NTP)",
			ErrClockSkew, op, where, a.code)
	case a.code == "SignatureDoesNotMatch":
		return fmt.Errorf("%w: %s on %s: S3 says the request's signature does not match (SignatureDoesNotMatch): the secret access key in use is not the access key ID's; "+
			"check S3_SECRET_ACCESS_KEY, AWS_SECRET_ACCESS_KEY or the profile's aws_secret_access_key%s", ErrCredentials, op, where, b.endpointNote())
	case a.code == "InvalidAccessKeyId":
		return fmt.Errorf("%w: %s on %s: S3 does not know the access key ID in use (InvalidAccessKeyId); check S3_ACCESS_KEY_ID, AWS_ACCESS_KEY_ID or the AWS profile%s",
			ErrCredentials, op, where, b.endpointNote())
	case a.code == "ExpiredToken" || a.code == "TokenRefreshRequired" || a.code == "InvalidToken":
		return fmt.Errorf("%w: %s on %s: S3 refused the session token (%s); renew the credentials (e.g. `aws sso login`)", ErrCredentials, op, where, a.code)
	case a.status == http.StatusMovedPermanently || a.code == "PermanentRedirect" || a.code == "AuthorizationHeaderMalformed" || a.code == "IllegalLocationConstraintException":
		if r := a.header.Get("X-Amz-Bucket-Region"); r != "" {
			return fmt.Errorf("%w: %s: the bucket is in region %q, not %q; set S3_REGION (or AWS_REGION) to %s", ErrWrongRegion, where, r, b.region, r)
		}
		return fmt.Errorf("%w: %s: the bucket is in another region than %q, and S3 did not say which; set S3_REGION (or AWS_REGION) to the bucket's region", ErrWrongRegion, where, b.region)
	case a.code == "AccessDenied" || a.code == "AllAccessDisabled" || a.status == http.StatusForbidden:
		return fmt.Errorf("%w: %s on %s: the credentials in use lack that permission (or the bucket belongs to another account)%s",
			ErrAccessDenied, iamAction[op], where, b.endpointNote())
	case isCertificate(err):
		return fmt.Errorf("%w: %s%s: the server's TLS certificate is not trusted: %v; set AWS_CA_BUNDLE (or ca_bundle in the AWS profile) to a PEM file of the CA that issued it",
			ErrCertificate, where, b.endpointNote(), netCause(err))
	case isNetwork(err):
		return fmt.Errorf("%w: %s%s gave no answer within %s: %v", ErrUnreachable, where, b.endpointNote(), b.settings.timeout(), netCause(err))
	case a.code != "":
		return fmt.Errorf("%s on %s: %s: %s", op, where, a.code, a.message)
	}
	return fmt.Errorf("%s on %s: %w", op, where, err)
}

// endpointNote names a custom endpoint, without anything a URL may carry besides host and path.
func (b *s3Bucket) endpointNote() string {
	if b.settings.Endpoint == "" {
		return ""
	}
	return " at S3_ENDPOINT " + RedactURL(b.settings.Endpoint)
}

// RedactURL is u without user information, query or fragment, which may carry secrets; a URL
// that does not parse is not shown at all.
func RedactURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return "(an endpoint URL that does not parse)"
	}
	clean := url.URL{Scheme: parsed.Scheme, Host: parsed.Host, Path: parsed.Path}
	return clean.String()
}

// isCertificate says whether err is a TLS handshake's refusal of the server's certificate.
func isCertificate(err error) bool {
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify)
}

// isNetwork says whether err means no answer came: refused, unresolvable, or timed out.
func isNetwork(err error) bool {
	var oe *net.OpError
	var de *net.DNSError
	var ne net.Error
	return errors.As(err, &oe) || errors.As(err, &de) || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// netCause is the innermost network error, without the HTTP client's wrapping (which repeats the
// URL).
func netCause(err error) error {
	var verify *tls.CertificateVerificationError
	if errors.As(err, &verify) {
		return verify.Err
	}
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
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
