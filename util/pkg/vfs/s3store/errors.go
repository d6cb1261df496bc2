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
	ErrNoBucket     = errors.New("no such bucket")
	ErrAccessDenied = errors.New("access denied")
	ErrUnreachable  = errors.New("S3 endpoint unreachable")
	// ErrCredentials: the credentials could not be obtained, or S3 does not know them.
	ErrCredentials = errors.New("no usable AWS credentials for S3")
	ErrWrongRegion = errors.New("wrong region")
	ErrClockSkew   = errors.New("clock skew")
	ErrCertificate = errors.New("untrusted TLS certificate")
	// ErrSettings: a file an AWS setting names cannot be used (missing, no regular file, too large).
	ErrSettings = errors.New("unusable AWS setting")
	// ErrLockInconsistent: the server's answers to the lock's create and read contradict each other.
	ErrLockInconsistent = errors.New("the S3 server cannot hold a lock")
)

// iamAction names each call's permission as IAM does, so access denied says what to grant.
var iamAction = map[string]string{
	"GetObject":           "s3:GetObject",
	"HeadObject":          "s3:GetObject",
	"PutObject":           "s3:PutObject",
	"DeleteObject":        "s3:DeleteObject",
	"ListObjectsV2":       "s3:ListBucket",
	"HeadBucket":          "s3:ListBucket",
	"GetBucketEncryption": "s3:GetEncryptionConfiguration",
}

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

// describe makes err actionable by cause, naming bucket, key and action but never a credential.
func (b *s3Bucket) describe(op, key string, err error) error {
	where := "s3://" + b.name
	if key != "" {
		where += "/" + key
	}
	// A credential source's answer (a 404, STS's 403) read as S3's would say the file is missing.
	var credErr *credentialsError
	if errors.As(err, &credErr) {
		return fmt.Errorf("%w: %s on %s: %v; fix the source named there, or set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to use static keys instead",
			ErrCredentials, op, where, credErr.err)
	}
	var notS3 *notS3Error
	if errors.As(err, &notS3) {
		return fmt.Errorf("%w: %s on %s%s: %s; check that S3_ENDPOINT (or AWS_ENDPOINT_URL_S3) names an S3 server",
			ErrNotS3, op, where, b.endpointNote(), notS3.detail)
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
		return fmt.Errorf("%w: %s%s gave no answer %s: %v", ErrUnreachable, where, b.endpointNote(), b.settings.limit(), netCause(err))
	case a.code != "":
		return fmt.Errorf("%s on %s: %s: %s", op, where, a.code, a.message)
	}
	return fmt.Errorf("%s on %s: %w", op, where, err)
}

func (b *s3Bucket) endpointNote() string {
	if b.settings.Endpoint == "" {
		return ""
	}
	return " at S3_ENDPOINT " + RedactURL(b.settings.Endpoint)
}

// RedactURL drops user information, query and fragment, which may carry secrets; an unparseable URL
// is not shown at all.
func RedactURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return "(an endpoint URL that does not parse)"
	}
	clean := url.URL{Scheme: parsed.Scheme, Host: parsed.Host, Path: parsed.Path}
	return clean.String()
}

func isCertificate(err error) bool {
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify)
}

func isNetwork(err error) bool {
	var oe *net.OpError
	var de *net.DNSError
	var ne net.Error
	return errors.As(err, &oe) || errors.As(err, &de) || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

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
