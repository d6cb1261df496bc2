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
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// As kops does, every object the store writes is encrypted at rest: it asks for SSE-S3 (AES256)
// unless the bucket encrypts by default, whose own choice (a KMS key, say) an explicit AES256
// would override. Buckets often have a policy denying any PutObject without
// x-amz-server-side-encryption, which this satisfies.

// bucketEncryption is what a bucket said of its default encryption, asked once per bucket.
type bucketEncryption struct {
	mu    sync.Mutex
	known bool
	// byDefault: the bucket encrypts new objects itself, so writes ask for nothing.
	byDefault bool
}

// sse is the server-side encryption a PutObject asks for: none when the bucket encrypts by default,
// else AES256. The bucket is asked (GetBucketEncryption) on the first write; an answer that it has
// no default encryption, that the call is denied or not implemented (many S3-compatible servers),
// is kept for the command's lifetime and means AES256. A failure that is no answer (a timeout)
// means AES256 for this write and is asked again next time.
func (b *s3Bucket) sse(ctx context.Context, c *s3.Client) types.ServerSideEncryption {
	e := &b.encryption
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.known {
		out, err := c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: aws.String(b.name)})
		switch {
		case err == nil:
			e.known, e.byDefault = true, encryptsByDefault(out.ServerSideEncryptionConfiguration)
		case answerOf(err).status != 0:
			e.known = true // S3 answered: no default encryption, or not for us to know
		}
	}
	if e.known && e.byDefault {
		return ""
	}
	return types.ServerSideEncryptionAes256
}

// encryptsByDefault says whether a bucket's encryption configuration names an algorithm for new
// objects.
func encryptsByDefault(c *types.ServerSideEncryptionConfiguration) bool {
	if c == nil {
		return false
	}
	for _, r := range c.Rules {
		if r.ApplyServerSideEncryptionByDefault != nil && r.ApplyServerSideEncryptionByDefault.SSEAlgorithm != "" {
			return true
		}
	}
	return false
}
