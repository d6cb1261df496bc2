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
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// writeAll writes through every kind of write the store makes: a plain write, a create, a
// conditional replace, and a lock's lease.
func writeAll(t *testing.T, p vfs.Path) {
	t.Helper()
	require.NoError(t, p.Join("c", "config").WriteFile([]byte("one")))
	require.NoError(t, vfs.CreateFile(p.Join("c", "instancegroup", "nodes"), []byte("ig")))
	_, v, err := vfs.ReadFileVersion(p.Join("c", "config"))
	require.NoError(t, err)
	require.NoError(t, vfs.ReplaceFile(p.Join("c", "config"), []byte("two"), v))
	unlock, err := p.Join(".kops" + vfs.LockSuffix).Lock()
	require.NoError(t, err)
	unlock()
}

// TestS3DenyUnencryptedPolicy: a bucket whose policy denies every PutObject without
// x-amz-server-side-encryption (AWS's usual "deny unencrypted uploads" policy, which the test
// server enforces) accepts every write of the store.
func TestS3DenyUnencryptedPolicy(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	c := srv.Client(s3test.AccessKey, s3test.SecretKey)
	ctx := context.Background()
	_, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: &bucket, Policy: aws.String(`{"Version":"2012-10-17","Statement":[{
		"Sid":"DenyUnencrypted","Effect":"Deny","Principal":"*","Action":"s3:PutObject","Resource":"arn:aws:s3:::` + bucket + `/*",
		"Condition":{"Null":{"s3:x-amz-server-side-encryption":"true"}}}]}`)})
	require.NoError(t, err)
	_, err = c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("plain"), Body: strings.NewReader("x")})
	require.Error(t, err, "the server enforces the policy: an unencrypted write is refused")

	p, err := vfs.NewContext(nil).WithS3(s3store.New(srv.Settings())).ParsePath("s3://" + bucket + "/state")
	require.NoError(t, err)
	writeAll(t, p)
	data, err := p.Join("c", "config").ReadFile()
	require.NoError(t, err)
	assert.Equal(t, "two", string(data))
}

// TestS3WriteHeaders: every PutObject asks for AES256 unless the bucket encrypts by default (the
// bucket is asked once), and carries KOPS_STATE_S3_ACL's canned ACL when one is set; the requests
// are the real ones, recorded on their way to the test server.
func TestS3WriteHeaders(t *testing.T) {
	srv := s3test.Shared(t)
	tests := []struct {
		name             string
		defaultEncrypted bool
		acl              string
		wantSSE          string
	}{
		{"no default encryption", false, "", "AES256"},
		{"default encryption", true, "", ""},
		{"ACL", false, "bucket-owner-full-control", "AES256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bucket := srv.NewBucket(t)
			if tt.defaultEncrypted {
				_, err := srv.Client(s3test.AccessKey, s3test.SecretKey).PutBucketEncryption(context.Background(), &s3.PutBucketEncryptionInput{
					Bucket: &bucket, ServerSideEncryptionConfiguration: &types.ServerSideEncryptionConfiguration{Rules: []types.ServerSideEncryptionRule{
						{ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAes256}}}}})
				require.NoError(t, err)
			}
			rec := &s3test.Recorder{Next: http.DefaultTransport}
			settings := srv.Settings()
			settings.Transport, settings.ACL = rec, tt.acl
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + bucket + "/state")
			require.NoError(t, err)
			writeAll(t, p)

			puts := rec.Matching(http.MethodPut, "")
			require.GreaterOrEqual(t, len(puts), 4, "every kind of write was recorded")
			for _, req := range puts {
				assert.Equal(t, tt.wantSSE, req.Header.Get("X-Amz-Server-Side-Encryption"), "%s", req.URL.Path)
				assert.Equal(t, tt.acl, req.Header.Get("X-Amz-Acl"), "%s", req.URL.Path)
			}
			assert.Len(t, rec.Matching(http.MethodGet, "encryption"), 1, "the bucket's encryption is asked once")
		})
	}
}
