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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
)

func TestParseS3(t *testing.T) {
	ctx := vfs.NewContext(nil).WithS3(New(Settings{Endpoint: "http://127.0.0.1:1", AccessKeyID: "a", SecretAccessKey: "b"}))
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "s3://my-bucket", want: "s3://my-bucket"},
		{in: "s3://my-bucket/", want: "s3://my-bucket"},
		{in: "s3://my-bucket/kops/state/", want: "s3://my-bucket/kops/state"},
		{in: "S3://my.bucket-1/x", want: "s3://my.bucket-1/x"},
		{in: "s3://", wantErr: `state store "s3://": no bucket: s3 URLs name one, e.g. s3://my-bucket/kops`},
		{in: "s3:///prefix", wantErr: `state store "s3:///prefix": no bucket: s3 URLs name one, e.g. s3://my-bucket/kops`},
		{in: "s3://ab", wantErr: `state store "s3://ab": bucket "ab": a bucket name has 3 to 63 characters`},
		{in: "s3://My-Bucket", wantErr: `state store "s3://My-Bucket": bucket "My-Bucket": a bucket name is lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit`},
		{in: "s3://-bucket", wantErr: `state store "s3://-bucket": bucket "-bucket": a bucket name is lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit`},
		{in: "s3://bucket/a/../b", wantErr: `state store "s3://bucket/a/../b": the prefix "a/../b" has an empty, "." or ".." part`},
		{in: "s3://bucket/a//b", wantErr: `state store "s3://bucket/a//b": the prefix "a//b" has an empty, "." or ".." part`},
		{in: "s3://bucket/a?versionId=1", wantErr: `state store "s3://bucket/a?versionId=1": an s3 URL takes no query (?), fragment (#) or backslash; name a bucket and a prefix, e.g. s3://my-bucket/kops`},
		{in: "s3://bucket/a\\b", wantErr: `state store "s3://bucket/a\\b": an s3 URL takes no query (?), fragment (#) or backslash; name a bucket and a prefix, e.g. s3://my-bucket/kops`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := ctx.ParsePath(tt.in)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.String())
			again, err := ctx.ParsePath(p.String())
			require.NoError(t, err)
			assert.Equal(t, p.String(), again.String(), "String is a form ParsePath maps back")
		})
	}
}

// TestS3JoinStaysBelow tries to leave a store's prefix through Join: every attempt is refused
// before a request is made (the endpoint is a closed port, so a request would fail otherwise).
func TestS3JoinStaysBelow(t *testing.T) {
	ctx := vfs.NewContext(nil).WithS3(New(Settings{Endpoint: "http://127.0.0.1:1", AccessKeyID: "a", SecretAccessKey: "b"}))
	base, err := ctx.ParsePath("s3://bucket/state")
	require.NoError(t, err)
	for _, name := range []string{"..", "../other", "a/../../other", "/abs", ".", ""} {
		t.Run(name, func(t *testing.T) {
			_, err := base.Join(name).ReadFile()
			assert.ErrorIs(t, err, vfs.ErrOutsideBase)
			assert.ErrorIs(t, base.Join(name).WriteFile([]byte("x")), vfs.ErrOutsideBase)
		})
	}
	assert.Equal(t, "s3://bucket/state/a/b", base.Join("a", "b").String())
	assert.Equal(t, "s3://bucket", base.Dir().String())
	assert.Equal(t, "s3://bucket", base.Dir().Dir().String(), "the bucket is its own parent")
}

// TestValidChild: listed names that are no path element (keys like "a//b", "a/./b" or "a/../b"
// that another tool wrote, which some servers keep as they are) never become a Path.
func TestValidChild(t *testing.T) {
	for name, want := range map[string]bool{
		"config": true, "c1.k8s.local": true, ".kops-ledger.sha256": true,
		"": false, ".": false, "..": false, "a/b": false,
	} {
		assert.Equal(t, want, validChild(name), "%q", name)
	}
}
