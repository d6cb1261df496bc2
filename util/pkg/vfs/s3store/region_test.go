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
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// TestBucketRegion: the bucket's region is read from S3's answer to HeadBucket, on success and on
// the 301 (or 403) that a request signed for another region gets; an answer without it is the error.
// The server stands in for AWS's regional endpoint, which no test reaches; what it sends is what S3
// documents for HeadBucket.
func TestBucketRegion(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		region  string
		want    string
		wantErr bool
	}{
		{"same region", http.StatusOK, "us-east-1", "us-east-1", false},
		{"moved", http.StatusMovedPermanently, "eu-west-1", "eu-west-1", false},
		{"forbidden but located", http.StatusForbidden, "ap-south-1", "ap-south-1", false},
		{"missing", http.StatusNotFound, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				assert.Equal(t, http.MethodHead, r.Method)
				assert.Equal(t, "/my-bucket", r.URL.Path)
				if tt.region != "" {
					w.Header().Set("X-Amz-Bucket-Region", tt.region)
				}
				w.WriteHeader(tt.status)
			}))
			defer srv.Close()
			c := s3.New(s3.Options{
				Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), UsePathStyle: true, RetryMaxAttempts: 1,
				Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
					return aws.Credentials{AccessKeyID: "a", SecretAccessKey: "b"}, nil
				}),
			})
			got, err := bucketRegion(context.Background(), c, "my-bucket")
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
