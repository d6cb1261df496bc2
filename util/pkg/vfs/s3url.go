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

// S3 opens s3:// paths. Its implementation, s3store, is a separate package so only the commands that
// need it link the SDK; the URL form is checked here so every command refuses it alike.
type S3 interface {
	// Path is key (clean, "/"-separated, "" for the bucket) in a valid bucket.
	Path(bucket, key string) Path
}

// S3Path lets ContextOf resolve s3:// URLs next to a path with the S3 that made it.
type S3Path interface {
	Path
	S3() S3
}

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

// checkBucketName applies S3's bucket name rules, so a typo fails here rather than at the server.
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
