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
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"k8s.io/kops/util/pkg/vfs"
)

// s3Path's folders are key prefixes with an object below, as kops reads and writes buckets.
type s3Path struct {
	b   *s3Bucket
	key string
}

func (p s3Path) S3() vfs.S3 { return p.b.stores }

func (p s3Path) Join(elems ...string) vfs.Path {
	if len(elems) == 0 {
		return p
	}
	rel, refused := vfs.JoinBelow(p, elems)
	if refused != nil {
		return refused
	}
	return s3Path{b: p.b, key: path.Join(p.key, rel)}
}

func (p s3Path) Dir() vfs.Path {
	dir, _ := split(p.key)
	return s3Path{b: p.b, key: dir}
}

func (p s3Path) Base() string {
	if p.key == "" {
		return p.b.name
	}
	_, name := split(p.key)
	return name
}

func (p s3Path) String() string {
	if p.key == "" {
		return "s3://" + p.b.name
	}
	return "s3://" + p.b.name + "/" + p.key
}

func (p s3Path) notFile(op string) error {
	return &fs.PathError{Op: op, Path: p.String(), Err: errors.New("a bucket is not a file")}
}

func (p s3Path) ReadFile() ([]byte, error) {
	data, _, err := p.read()
	return data, err
}

func (p s3Path) read() ([]byte, string, error) {
	if p.key == "" {
		return nil, "", p.notFile("read")
	}
	var data []byte
	var etag string
	err := p.b.op(func(ctx context.Context, c *s3.Client) error {
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(p.b.name), Key: aws.String(p.key)})
		if err != nil {
			return p.b.describe("GetObject", p.key, err)
		}
		defer func() { _ = out.Body.Close() }()
		if n := aws.ToInt64(out.ContentLength); n > vfs.MaxFileSize {
			return vfs.TooLarge(p.String(), n)
		}
		data, err = io.ReadAll(io.LimitReader(out.Body, vfs.MaxFileSize+1))
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		if len(data) > vfs.MaxFileSize {
			return vfs.TooLarge(p.String(), int64(len(data)))
		}
		etag = aws.ToString(out.ETag)
		return nil
	})
	return data, etag, err
}

func (p s3Path) WriteFile(data []byte) error { return p.put(data, "", "") }

func (p s3Path) put(data []byte, ifMatch, ifNoneMatch string) error {
	_, err := p.putETag(data, ifMatch, ifNoneMatch)
	return err
}

func (p s3Path) putETag(data []byte, ifMatch, ifNoneMatch string) (string, error) {
	if p.key == "" {
		return "", p.notFile("write")
	}
	var etag string
	err := p.b.op(func(ctx context.Context, c *s3.Client) error {
		in := &s3.PutObjectInput{
			Bucket: aws.String(p.b.name), Key: aws.String(p.key), Body: bytes.NewReader(data),
			ContentLength:        aws.Int64(int64(len(data))),
			ServerSideEncryption: p.b.sse(ctx, c),
			ACL:                  types.ObjectCannedACL(p.b.settings.ACL),
		}
		if ifMatch != "" {
			in.IfMatch = aws.String(ifMatch)
		}
		if ifNoneMatch != "" {
			in.IfNoneMatch = aws.String(ifNoneMatch)
		}
		out, err := c.PutObject(ctx, in)
		if err != nil {
			return p.b.describe("PutObject", p.key, err)
		}
		etag = aws.ToString(out.ETag)
		return nil
	})
	return etag, err
}

func (p s3Path) CheckWritable() error {
	if p.key == "" {
		return p.notFile("write")
	}
	return nil
}

func (p s3Path) head() (bool, string, error) {
	if p.key == "" {
		return false, "", nil
	}
	var etag string
	err := p.b.op(func(ctx context.Context, c *s3.Client) error {
		out, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(p.b.name), Key: aws.String(p.key)})
		if err != nil {
			return p.b.describe("HeadObject", p.key, err)
		}
		etag = aws.ToString(out.ETag)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return false, "", nil
	}
	return err == nil, etag, err
}

func (p s3Path) prefix() string {
	if p.key == "" {
		return ""
	}
	return p.key + "/"
}

// list calls f per page: every key when deep, else immediate objects and prefixes.
func (p s3Path) list(deep bool, max int, f func(*listPage) (more bool)) error {
	in := &s3.ListObjectsV2Input{Bucket: aws.String(p.b.name)}
	if pre := p.prefix(); pre != "" {
		in.Prefix = aws.String(pre)
	}
	if !deep {
		in.Delimiter = aws.String("/")
	}
	if max > 0 {
		in.MaxKeys = aws.Int32(int32(max))
	}
	return p.b.op(func(ctx context.Context, c *s3.Client) error {
		keyBytes := 0
		for pages := 1; ; pages++ {
			out, err := c.ListObjectsV2(ctx, in)
			if err != nil {
				return p.b.describe("ListObjectsV2", p.key, err)
			}
			page := &listPage{}
			for _, o := range out.Contents {
				page.keys = append(page.keys, aws.ToString(o.Key))
				keyBytes += len(aws.ToString(o.Key))
			}
			for _, cp := range out.CommonPrefixes {
				page.commonPrefixes = append(page.commonPrefixes, aws.ToString(cp.Prefix))
				keyBytes += len(aws.ToString(cp.Prefix))
			}
			next := aws.ToString(out.NextContinuationToken)
			// A server repeating the token it was given would list forever.
			if !f(page) || !aws.ToBool(out.IsTruncated) || next == "" || next == aws.ToString(in.ContinuationToken) {
				return nil
			}
			if pages >= maxListPages || keyBytes > maxListedKeyBytes {
				return fmt.Errorf("%w: listing %s%s: more than %d pages or %d bytes of names, more than a state store holds; "+
					"check that S3_ENDPOINT names an S3 server, and that the store's path is a kops state store",
					ErrNotS3, p, p.b.endpointNote(), maxListPages, maxListedKeyBytes)
			}
			in.ContinuationToken = aws.String(next)
		}
	})
}

type listPage struct {
	keys           []string
	commonPrefixes []string
}

// hasMarker: some tools write "p/" marker objects, and folder-keeping servers (SeaweedFS) answer to them.
func (p s3Path) hasMarker() (bool, error) {
	if p.key == "" {
		return false, nil
	}
	ok, _, err := (s3Path{b: p.b, key: p.key + "/"}).head()
	return ok, err
}

func (p s3Path) hasChildren() (bool, error) {
	found := false
	err := p.list(true, 1, func(out *listPage) bool {
		found = len(out.keys) > 0
		return false
	})
	return found, err
}

// Remove deletes only the revision it found, so a file replaced meanwhile is not lost.
func (p s3Path) Remove() error {
	exists, etag, err := p.head()
	if err != nil {
		return err
	}
	if !exists {
		children, err := p.hasChildren()
		if err != nil {
			return err
		}
		if children {
			return &fs.PathError{Op: "remove", Path: p.String(), Err: syscall.ENOTEMPTY}
		}
		return &fs.PathError{Op: "remove", Path: p.String(), Err: fs.ErrNotExist}
	}
	return p.delete(etag)
}

func (p s3Path) delete(etag string) error {
	return p.b.op(func(ctx context.Context, c *s3.Client) error {
		in := &s3.DeleteObjectInput{Bucket: aws.String(p.b.name), Key: aws.String(p.key)}
		if etag != "" {
			in.IfMatch = aws.String(etag)
		}
		if _, err := c.DeleteObject(ctx, in); err != nil {
			return p.b.describe("DeleteObject", p.key, err)
		}
		return nil
	})
}

// RemoveDir succeeds when nothing lies below p, deleting any "p/" marker so the folder is not listed.
func (p s3Path) RemoveDir() error {
	children, err := p.hasChildren()
	if err != nil {
		return err
	}
	if children {
		return &fs.PathError{Op: "removedir", Path: p.String(), Err: syscall.ENOTEMPTY}
	}
	return p.removeMarker()
}

func (p s3Path) removeMarker() error {
	if p.key == "" {
		return nil
	}
	err := (s3Path{b: p.b, key: p.key + "/"}).delete("")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (p s3Path) RemoveAll() error {
	if p.key == "" {
		return &fs.PathError{Op: "removeall", Path: p.String(), Err: errors.New("a bucket is not removed through its own path")}
	}
	var keys []string
	err := p.list(true, 0, func(out *listPage) bool {
		keys = append(keys, out.keys...)
		return true
	})
	if err != nil {
		return err
	}
	keys = append(keys, p.key)
	var folders []string
	seen := map[string]bool{}
	for _, k := range keys {
		if strings.HasSuffix(k, "/") {
			continue
		}
		if err := (s3Path{b: p.b, key: k}).delete(""); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for dir, _ := split(k); len(dir) > len(p.key) && !seen[dir]; dir, _ = split(dir) {
			seen[dir] = true
			folders = append(folders, dir)
		}
	}
	slices.SortFunc(folders, func(a, b string) int { return len(b) - len(a) })
	for _, dir := range append(folders, p.key) {
		if err := (s3Path{b: p.b, key: dir}).removeMarker(); err != nil {
			return err
		}
	}
	return nil
}

// ReadDir hides lock objects and "folder/" markers; a prefix with nothing below does not exist.
func (p s3Path) ReadDir() ([]vfs.Path, error) {
	var children []vfs.Path
	pre := p.prefix()
	err := p.list(false, 0, func(out *listPage) bool {
		for _, cp := range out.commonPrefixes {
			name := strings.TrimSuffix(strings.TrimPrefix(cp, pre), "/")
			if validChild(name) {
				children = append(children, s3Path{b: p.b, key: path.Join(p.key, name)})
			}
		}
		for _, key := range out.keys {
			name := strings.TrimPrefix(key, pre)
			if validChild(name) && !vfs.Hidden(name) {
				children = append(children, s3Path{b: p.b, key: path.Join(p.key, name)})
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if len(children) == 0 {
		if ok, err := p.hasMarker(); err != nil || !ok {
			return nil, errors.Join(&fs.PathError{Op: "readdir", Path: p.String(), Err: fs.ErrNotExist}, err)
		}
	}
	slices.SortFunc(children, func(a, b vfs.Path) int { return strings.Compare(a.Base(), b.Base()) })
	return children, nil
}

// validChild refuses keys like "a//b" or "a/../b", which Join would clean into another path.
func validChild(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
}

func (p s3Path) Exists() (bool, error) {
	if p.key == "" {
		return true, p.bucketExists()
	}
	ok, _, err := p.head()
	if err != nil || ok {
		return ok, err
	}
	if ok, err = p.hasChildren(); err != nil || ok {
		return ok, err
	}
	return p.hasMarker()
}

func (p s3Path) IsDir() (bool, error) {
	if p.key == "" {
		return true, p.bucketExists()
	}
	ok, _, err := p.head()
	if err != nil {
		return false, err
	}
	if ok {
		return false, nil
	}
	children, err := p.hasChildren()
	if err != nil || children {
		return children, err
	}
	if ok, err := p.hasMarker(); err != nil || ok {
		return ok, err
	}
	return false, &fs.PathError{Op: "stat", Path: p.String(), Err: fs.ErrNotExist}
}

func (p s3Path) bucketExists() error {
	return p.b.op(func(ctx context.Context, c *s3.Client) error {
		if _, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(p.b.name)}); err != nil {
			return p.b.describe("HeadBucket", "", err)
		}
		return nil
	})
}

func split(key string) (dir, name string) {
	i := strings.LastIndexByte(key, '/')
	if i < 0 {
		return "", key
	}
	return key[:i], key[i+1:]
}

func (p s3Path) ReadFileVersion() ([]byte, vfs.Version, error) {
	data, etag, err := p.read()
	return data, vfs.Version{ETag: etag}, err
}

func (p s3Path) ReplaceFileVersion(data []byte, v vfs.Version) error {
	if v.ETag == "" {
		return p.WriteFile(data)
	}
	return p.put(data, v.ETag, "")
}

func (p s3Path) CreateFileOnce(data []byte) error {
	err := p.put(data, "", "*")
	if errors.Is(err, vfs.ErrPrecondition) {
		return &fs.PathError{Op: "create", Path: p.String(), Err: fs.ErrExist}
	}
	return err
}
