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
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"k8s.io/kops/util/pkg/vfs"
)

// A store lock on S3 is a lease: an object created only if absent, renewed and deleted with If-Match
// on its ETag so a lease taken over is never touched. An expired lease is taken over with If-Match,
// so exactly one waiter wins. Expiry uses the server's clock alone.

// leaseBody's length is the holder's setting, not the waiter's.
type leaseBody struct {
	Owner   string `json:"owner"`
	Seconds int    `json:"leaseSeconds"`
}

func leaseOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("kops on %s, pid %d (%s)", host, os.Getpid(), hex.EncodeToString(b[:]))
}

func (p s3Path) Lock() (func(), error) {
	if p.key == "" {
		return nil, fmt.Errorf("locking %s: a bucket is not a lock object", p)
	}
	lease := p.b.settings.lease()
	body, _ := json.Marshal(leaseBody{Owner: leaseOwner(), Seconds: int((lease + time.Second - 1) / time.Second)})
	deadline := time.Now().Add(p.b.settings.lockWait())
	if d := p.b.settings.Deadline; !d.IsZero() && d.Before(deadline) {
		deadline = d
	}
	wait := time.Until(deadline).Round(time.Millisecond)
	pause := 50 * time.Millisecond
	// Every round that does not end here waits, growing, and ends by the deadline: a server whose
	// answers contradict each other (412 to the create, 404 to the read) must not be asked in a loop.
	for {
		etag, err := p.putETag(body, "", "*")
		if err == nil {
			return p.hold(body, etag, lease), nil
		}
		if !errors.Is(err, vfs.ErrPrecondition) {
			return nil, fmt.Errorf("locking %s: %w", p, err)
		}
		held, err := p.readLease()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Released meanwhile, or a server that refuses the create of an object it does not have.
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("%w: locking %s%s: for %s, creating the lock object was refused as if it existed (412) "+
					"while reading it found none (404); the server does not keep conditional writes consistent with reads, "+
					"so it cannot hold kops's lock: use an S3 server that does", ErrLockInconsistent, p, p.b.endpointNote(), wait)
			}
		case err != nil:
			return nil, fmt.Errorf("locking %s: %w", p, err)
		case held.expired:
			etag, err := p.putETag(body, held.etag, "")
			if err == nil {
				return p.hold(body, etag, lease), nil
			}
			if !errors.Is(err, vfs.ErrPrecondition) && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("locking %s: %w", p, err)
			}
			// Another took it over first, or its holder released it.
		case time.Now().After(deadline):
			return nil, fmt.Errorf("state store %s is locked by %s since %s (a lease of %ds its command renews while it runs); "+
				"waited %s. If no kops command is running there, the lease expires by itself",
				p.Dir(), held.Owner, held.modified.UTC().Format(time.RFC3339), held.Seconds, wait)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("locking %s: gave up after %s: the expired lease kept being taken over by another", p, wait)
		}
		time.Sleep(min(pause, time.Until(deadline)+time.Millisecond))
		pause = min(2*pause, time.Second)
	}
}

type heldLease struct {
	leaseBody
	etag     string
	modified time.Time
	expired  bool
}

func (p s3Path) readLease() (heldLease, error) {
	var h heldLease
	err := p.b.op(func(ctx context.Context, c *s3.Client) error {
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(p.b.name), Key: aws.String(p.key)})
		if err != nil {
			return p.b.describe("GetObject", p.key, err)
		}
		defer func() { _ = out.Body.Close() }()
		data, err := io.ReadAll(io.LimitReader(out.Body, 4096))
		if err != nil {
			return err
		}
		h.etag, h.modified = aws.ToString(out.ETag), aws.ToTime(out.LastModified)
		if json.Unmarshal(data, &h.leaseBody) != nil || h.Seconds <= 0 {
			// Not a lease this build wrote: treat it as the shortest lease, so it cannot block forever.
			h.Owner, h.Seconds = fmt.Sprintf("an unreadable lease object (%d bytes)", len(data)), int(DefaultLeaseDuration/time.Second)
		}
		now, _ := awsmiddleware.GetServerTime(out.ResultMetadata) // zero if the server sent no Date: an expiry is then never assumed
		h.expired = !now.IsZero() && now.Sub(h.modified) > time.Duration(h.Seconds)*time.Second
		return nil
	})
	return h, err
}

func (p s3Path) hold(body []byte, etag string, lease time.Duration) func() {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				mu.Lock()
				next, err := p.putETag(body, etag, "")
				if err == nil {
					etag = next
				}
				mu.Unlock()
				if err != nil && errors.Is(err, vfs.ErrPrecondition) {
					return // taken over: every conditional write of the command still checks its own object
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			wg.Wait()
			mu.Lock()
			defer mu.Unlock()
			_ = p.delete(etag) // a lease taken over meanwhile is the new holder's: If-Match leaves it
		})
	}
}
