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

package vfs

import (
	"errors"
	"fmt"
	"strings"
)

// S3 opens the paths of s3:// URLs. Its implementation, util/pkg/vfs/s3store (on the AWS SDK for
// Go v2 and its default credential chain), lives in a package of its own: only the
// commands that read s3:// stores link it, and give it to their Context at the cmd edge (WithS3).
// The URL's form is checked here, so a command without S3 refuses a malformed URL with the same
// words.
type S3 interface {
	// Path is key (clean, "/"-separated, "" for the bucket itself) in bucket, whose name is valid.
	Path(bucket, key string) Path
}

// S3Path is implemented by the paths an S3 makes: ContextOf resolves s3:// URLs next to such a
// path with the S3 that made it (and its clients).
type S3Path interface {
	Path
	S3() S3
}

// parseS3 turns "bucket/prefix" (what follows s3://) into a path of store.
func parseS3(s, rest string, store S3) (Path, error) {
	bucket, prefix, _ := strings.Cut(rest, "/")
	if err := checkBucketName(bucket); err != nil {
		return nil, fmt.Errorf("state store %q: %w", s, err)
	}
	if strings.ContainsAny(rest, "?#\\") {
		return nil, fmt.Errorf("state store %q: an s3 URL takes no query (?), fragment (#) or backslash; name a bucket and a prefix, e.g. s3://my-bucket/kops", s)
	}
	if store == nil {
		return nil, fmt.Errorf("state store %q: s3:// needs S3 settings, which this command does not read (kops reads them from its environment, see docs/state-store.md)", s)
	}
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return store.Path(bucket, ""), nil
	}
	for _, part := range strings.Split(prefix, "/") {
		if part == "" || part == "." || part == ".." {
			return nil, fmt.Errorf("state store %q: the prefix %q has an empty, \".\" or \"..\" part", s, prefix)
		}
	}
	return store.Path(bucket, prefix), nil
}

// checkBucketName applies S3's rules for bucket names (3 to 63 lowercase letters, digits, dots and
// hyphens, starting and ending with a letter or digit), so a typo fails here with the rule, not
// later with an opaque answer from the server.
func checkBucketName(b string) error {
	if b == "" {
		return errors.New("no bucket: s3 URLs name one, e.g. s3://my-bucket/kops")
	}
	if len(b) < 3 || len(b) > 63 {
		return fmt.Errorf("bucket %q: a bucket name has 3 to 63 characters", b)
	}
	for i, c := range b {
		ok := 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || (c == '.' || c == '-') && i > 0 && i < len(b)-1
		if !ok {
			return fmt.Errorf("bucket %q: a bucket name is lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit", b)
		}
	}
	return nil
}
