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
	"bytes"
	"context"
	"io/fs"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// store is one kind of store the conformance tests run on: a fresh, empty one per call.
type store struct {
	name string
	open func(t *testing.T) vfs.Path
}

var stores = []store{
	{"file", func(t *testing.T) vfs.Path {
		p, err := vfs.ParsePath("file://"+t.TempDir()+"/state", nil)
		require.NoError(t, err)
		return p
	}},
	{"s3", func(t *testing.T) vfs.Path { return s3Store(t, nil) }},
}

// s3Store is a fresh bucket of the test server, with a prefix, as the admin.
func s3Store(t *testing.T, change func(*s3store.Settings)) vfs.Path {
	srv := s3test.Shared(t)
	settings := srv.Settings()
	if change != nil {
		change(&settings)
	}
	p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + srv.NewBucket(t) + "/state")
	require.NoError(t, err)
	return p
}

// TestStoreConformance runs the same operations on every kind of store and expects the same
// answers: what the state store code relies on does not depend on where the state is.
func TestStoreConformance(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			base := s.open(t)
			_, err := base.ReadDir()
			assert.ErrorIs(t, err, fs.ErrNotExist, "an empty store lists as missing")
			ok, err := base.Join("c1", "config").Exists()
			require.NoError(t, err)
			assert.False(t, ok)

			require.NoError(t, base.Join("c1", "config").WriteFile([]byte("one")))
			require.NoError(t, base.Join("c1", "instancegroup", "nodes").WriteFile([]byte("ig")))
			require.NoError(t, base.Join("c2", "config").WriteFile([]byte("two")))
			require.NoError(t, base.Join("c1", "config").WriteFile([]byte("one again")))

			data, err := base.Join("c1", "config").ReadFile()
			require.NoError(t, err)
			assert.Equal(t, "one again", string(data))
			_, err = base.Join("c1", "missing").ReadFile()
			assert.ErrorIs(t, err, fs.ErrNotExist)

			assert.Equal(t, []string{"c1", "c2"}, names(t, base))
			assert.Equal(t, []string{"config", "instancegroup"}, names(t, base.Join("c1")))
			isDir, err := base.Join("c1", "instancegroup").IsDir()
			require.NoError(t, err)
			assert.True(t, isDir)
			isDir, err = base.Join("c1", "config").IsDir()
			require.NoError(t, err)
			assert.False(t, isDir)
			_, err = base.Join("c3").IsDir()
			assert.ErrorIs(t, err, fs.ErrNotExist)

			err = base.Join("c1", "instancegroup").Remove()
			assert.ErrorIs(t, err, syscall.ENOTEMPTY, "a folder with files is not removed")
			err = base.Join("c1", "instancegroup").RemoveDir()
			assert.ErrorIs(t, err, syscall.ENOTEMPTY)
			require.NoError(t, base.Join("c1", "instancegroup", "nodes").Remove())
			assert.ErrorIs(t, base.Join("c1", "instancegroup", "nodes").Remove(), fs.ErrNotExist)
			require.NoError(t, base.Join("c1", "instancegroup").RemoveDir())
			assert.Equal(t, []string{"config"}, names(t, base.Join("c1")))

			require.NoError(t, base.Join("c2").RemoveAll())
			require.NoError(t, base.Join("c2").RemoveAll(), "removing what is gone is no error")
			assert.Equal(t, []string{"c1"}, names(t, base))

			unlock, err := base.Join(".kops" + vfs.LockSuffix).Lock()
			require.NoError(t, err)
			assert.Equal(t, []string{"c1"}, names(t, base), "a lock is not listed")
			unlock()
		})
	}
}

func names(t *testing.T, p vfs.Path) []string {
	t.Helper()
	children, err := p.ReadDir()
	require.NoError(t, err)
	var out []string
	for _, c := range children {
		out = append(out, c.Base())
	}
	return out
}

// TestConditionalWrites: a create never replaces, and a replace never overwrites a version it did
// not read; the loser's write changes nothing.
func TestConditionalWrites(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			p := s.open(t).Join("c", "config")
			require.NoError(t, vfs.CreateFile(p, []byte("first")))
			assert.ErrorIs(t, vfs.CreateFile(p, []byte("second")), fs.ErrExist)
			data, v1, err := vfs.ReadFileVersion(p)
			require.NoError(t, err)
			assert.Equal(t, "first", string(data))
			_, v2, err := vfs.ReadFileVersion(p)
			require.NoError(t, err)
			require.NoError(t, vfs.ReplaceFile(p, []byte("edit one"), v1))
			err = vfs.ReplaceFile(p, []byte("edit two"), v2)
			if s.name == "s3" {
				// Only S3 compares at the write; local writers compare under the store lock.
				assert.ErrorIs(t, err, vfs.ErrPrecondition)
				data, err = p.ReadFile()
				require.NoError(t, err)
				assert.Equal(t, "edit one", string(data))
			}
		})
	}
}

// TestS3ConcurrentCreatesOneWins: of many creates of one object at once, exactly one succeeds.
func TestS3ConcurrentCreatesOneWins(t *testing.T) {
	p := s3Store(t, nil).Join("c", "config")
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = vfs.CreateFile(p, []byte{byte('a' + i)})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else {
			assert.ErrorIs(t, err, fs.ErrExist)
		}
	}
	assert.Equal(t, 1, won)
}

// TestS3Lease: a second holder waits for the first; a lease whose holder died is taken over once
// it expires, and not before; a lease that does not expire in the wait makes Lock fail, naming who
// holds it.
func TestS3Lease(t *testing.T) {
	base := s3Store(t, func(s *s3store.Settings) { s.Lease = 2 * time.Second })
	lock := base.Join(".kops" + vfs.LockSuffix)

	unlock, err := lock.Lock()
	require.NoError(t, err)
	var order []string
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		u, err := lock.Lock()
		assert.NoError(t, err)
		mu.Lock()
		order = append(order, "second")
		mu.Unlock()
		u()
	}()
	time.Sleep(3 * time.Second) // longer than the lease: the holder renews it meanwhile
	mu.Lock()
	order = append(order, "first done")
	mu.Unlock()
	unlock()
	<-done
	assert.Equal(t, []string{"first done", "second"}, order)
	ok, err := lock.Exists()
	require.NoError(t, err)
	assert.False(t, ok, "unlock deletes the lease")

	// A holder killed without unlocking: its lease stays, and is taken over after it expires.
	require.NoError(t, lock.WriteFile([]byte(`{"owner":"a killed kops","leaseSeconds":2}`)))
	start := time.Now()
	unlock, err = lock.Lock()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "a live lease is not taken over")
	unlock()

	// A lease that outlives the wait.
	short := s3Store(t, func(s *s3store.Settings) { s.LockWait = time.Second })
	held := short.Join(".kops" + vfs.LockSuffix)
	require.NoError(t, held.WriteFile([]byte(`{"owner":"kops on elsewhere, pid 7","leaseSeconds":600}`)))
	_, err = held.Lock()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is locked by kops on elsewhere, pid 7 since")
}

// TestS3Errors: what a user sees for the usual mistakes names what to fix, and never a secret.
func TestS3Errors(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	admin := srv.Settings()
	reader := admin
	reader.AccessKeyID, reader.SecretAccessKey = s3test.ReadOnlyAccessKey, s3test.ReadOnlySecretKey
	unreachable := admin
	unreachable.Endpoint, unreachable.Timeout = "http://127.0.0.1:1", 3*time.Second
	halfKeys := admin
	halfKeys.SecretAccessKey = ""

	tests := []struct {
		name     string
		settings s3store.Settings
		url      string
		op       func(p vfs.Path) error
		is       error
		want     string
	}{
		{"missing bucket", admin, "s3://kops-no-such-bucket-here/state", readConfig, s3store.ErrNoBucket,
			`bucket "kops-no-such-bucket-here" does not exist (or is not visible to these credentials) at S3_ENDPOINT ` + admin.Endpoint},
		{"read-only key writes", reader, "s3://" + bucket + "/state", writeConfig, s3store.ErrAccessDenied,
			"access denied: s3:PutObject on s3://" + bucket + "/state/c/config"},
		{"unreachable", unreachable, "s3://" + bucket + "/state", readConfig, s3store.ErrUnreachable,
			"S3 endpoint unreachable: s3://" + bucket + "/state/c/config at S3_ENDPOINT http://127.0.0.1:1 gave no answer within 3s"},
		{"half the keys", halfKeys, "s3://" + bucket + "/state", readConfig, nil,
			"S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := vfs.NewContext(nil).WithS3(s3store.New(tt.settings)).ParsePath(tt.url)
			require.NoError(t, err)
			err = tt.op(p)
			require.Error(t, err)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			assert.Contains(t, err.Error(), tt.want)
			for _, secret := range []string{s3test.SecretKey, s3test.ReadOnlySecretKey} {
				assert.NotContains(t, err.Error(), secret)
			}
		})
	}
}

func readConfig(p vfs.Path) error {
	_, err := p.Join("c", "config").ReadFile()
	return err
}

func writeConfig(p vfs.Path) error { return p.Join("c", "config").WriteFile([]byte("x")) }

// TestS3ReadsAreBounded: an object over the size limit is refused before its body is read.
func TestS3ReadsAreBounded(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	c := srv.Client(s3test.AccessKey, s3test.SecretKey)
	put := func(key string, data []byte) {
		_, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &bucket, Key: aws.String(key), Body: bytes.NewReader(data)})
		require.NoError(t, err)
	}
	put("state/big/config", bytes.Repeat([]byte("x"), vfs.MaxFileSize+1))
	put("state/ok/config", []byte("x"))

	p, err := vfs.NewContext(nil).WithS3(s3store.New(srv.Settings())).ParsePath("s3://" + bucket + "/state")
	require.NoError(t, err)
	_, err = p.Join("big", "config").ReadFile()
	assert.ErrorIs(t, err, vfs.ErrTooLarge)
	assert.Equal(t, []string{"big", "ok"}, names(t, p))
}

// TestS3ClientIsLazy: opening and joining s3:// paths does no SDK work: the AWS configuration is
// loaded (and the client made) on the first request, once per bucket.
func TestS3ClientIsLazy(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	loads := 0
	settings := srv.Settings()
	settings.AccessKeyID, settings.SecretAccessKey = "", ""
	settings.LoadDefault = func(context.Context) (aws.Config, error) {
		loads++
		return aws.Config{Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey}, nil
		})}, nil
	}
	p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + bucket + "/state")
	require.NoError(t, err)
	config := p.Join("c", "config")
	assert.Equal(t, "s3://"+bucket+"/state/c/config", config.String())
	assert.Zero(t, loads, "no configuration is loaded before a request")
	require.NoError(t, config.WriteFile([]byte("x")))
	_, err = config.ReadFile()
	require.NoError(t, err)
	assert.Equal(t, 1, loads, "loaded once for the bucket")
}
