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

package s3store_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/logging"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// TestS3ErrorsByCause: each cause of a failure is named as such, with what to do. Wrong keys go to
// the real test server; what it cannot produce (a skewed clock, a bucket in another region) comes
// from a local server answering as S3 documents it does.
func TestS3ErrorsByCause(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	wrongSecret := srv.Settings()
	wrongSecret.SecretAccessKey = "not-the-admin-secret-0123456789"
	unknownKey := srv.Settings()
	unknownKey.AccessKeyID = "kops-test-nobody"

	answering := func(status int, header map[string]string, code string) s3store.Settings {
		fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(status)
			_, _ = fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>as S3 says it</Message><RequestId>1</RequestId></Error>`, code)
		}))
		t.Cleanup(fake.Close)
		return s3store.Settings{Endpoint: fake.URL, Region: "us-east-1", AccessKeyID: "AKID", SecretAccessKey: "fake-secret-0123456789", Timeout: 10 * time.Second}
	}
	tests := []struct {
		name     string
		settings s3store.Settings
		bucket   string
		is       error
		want     string
	}{
		{"wrong secret key", wrongSecret, bucket, s3store.ErrCredentials,
			"(SignatureDoesNotMatch): the secret access key in use is not the access key ID's"},
		{"unknown access key", unknownKey, bucket, s3store.ErrCredentials, "S3 does not know the access key ID in use (InvalidAccessKeyId)"},
		{"skewed clock", answering(http.StatusForbidden, nil, "RequestTimeTooSkewed"), "bucket", s3store.ErrClockSkew,
			"this machine's clock is off by more than S3 allows"},
		{"other region", answering(http.StatusMovedPermanently, map[string]string{"X-Amz-Bucket-Region": "eu-west-3"}, "PermanentRedirect"), "bucket",
			s3store.ErrWrongRegion, `the bucket is in region "eu-west-3", not "us-east-1"; set S3_REGION (or AWS_REGION) to eu-west-3`},
		{"access denied", answering(http.StatusForbidden, nil, "AccessDenied"), "bucket", s3store.ErrAccessDenied, "s3:GetObject on s3://bucket/state/c/config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := vfs.NewContext(nil).WithS3(s3store.New(tt.settings)).ParsePath("s3://" + tt.bucket + "/state")
			require.NoError(t, err)
			err = readConfig(p)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.is)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), tt.settings.SecretAccessKey)
		})
	}
}

// TestS3EndpointOfEveryPartition: with no S3_ENDPOINT, the store's first request for a bucket goes
// to the S3 endpoint the SDK's resolver gives for the region, in every partition the SDK knows
// (the domain is checked too); nothing is sent.
func TestS3EndpointOfEveryPartition(t *testing.T) {
	tests := []struct{ region, domain string }{
		{"us-east-1", ".amazonaws.com"},
		{"cn-north-1", ".amazonaws.com.cn"},
		{"us-gov-west-1", ".amazonaws.com"},
		{"us-iso-east-1", ".c2s.ic.gov"},
		{"us-isob-east-1", ".sc2s.sgov.gov"},
		{"eu-isoe-west-1", ".cloud.adc-e.uk"},
		{"us-isof-south-1", ".csp.hci.ic.gov"},
		{"eusc-de-east-1", ".amazonaws.eu"},
	}
	const bucket = "kops-state"
	for _, tt := range tests {
		t.Run(tt.region, func(t *testing.T) {
			ep, err := s3.NewDefaultEndpointResolverV2().ResolveEndpoint(context.Background(), s3.EndpointParameters{Region: &tt.region, Bucket: ptr(bucket)})
			require.NoError(t, err)
			rec := &s3test.Recorder{}
			settings := s3store.Settings{Region: tt.region, AccessKeyID: "AKID", SecretAccessKey: "secret", Transport: rec, Timeout: 5 * time.Second}
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + bucket + "/state")
			require.NoError(t, err)
			require.Error(t, readConfig(p))
			reqs := rec.Requests()
			require.NotEmpty(t, reqs)
			assert.Equal(t, ep.URI.Host, reqs[0].URL.Host)
			assert.Equal(t, "https", reqs[0].URL.Scheme)
			assert.Equal(t, bucket+".s3."+tt.region+tt.domain, reqs[0].URL.Host)
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestS3ReadLogsNothing: reading an object that carries no checksum (as every object kops or an
// older tool wrote) puts nothing on the SDK's log, which is the command's stderr.
func TestS3ReadLogsNothing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"1"`)
		_, _ = fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	var logged []string
	settings := s3store.Settings{Endpoint: srv.URL, Region: "us-east-1", LoadDefault: func(context.Context) (aws.Config, error) {
		return aws.Config{
			// As config.LoadDefaultConfig sets it: GetObject validates a checksum the answer carries.
			ResponseChecksumValidation: aws.ResponseChecksumValidationWhenSupported,
			Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "secret"}, nil
			}),
			Logger: logging.LoggerFunc(func(c logging.Classification, format string, v ...any) {
				logged = append(logged, fmt.Sprintf(string(c)+" "+format, v...))
			}),
		}, nil
	}}
	p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://bucket/state/config")
	require.NoError(t, err)
	data, err := p.ReadFile()
	require.NoError(t, err)
	assert.Equal(t, "hello", string(data))
	assert.Empty(t, logged)
}
