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

// As kops does, writes ask for SSE-S3 (AES256) unless the bucket encrypts by default, whose own choice
// (a KMS key) AES256 would override; this also satisfies policies denying unencrypted PutObject.

type bucketEncryption struct {
	mu        sync.Mutex
	known     bool
	byDefault bool
}

// sse asks the bucket on the first write; a definite answer (including denied or not implemented)
// is kept, while a failure with no answer means AES256 for this write only.
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
