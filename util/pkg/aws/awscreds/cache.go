package awscreds

import (
	"context"
	"sync"
	"time"

	"k8s.io/kops/util/pkg/aws/sigv4"
)

// refreshBefore is how long before they expire credentials are fetched again, so that a request
// signed with them does not arrive after they lapsed.
const refreshBefore = 5 * time.Minute

// Cache keeps the chain's credentials until shortly before they expire; one fetch runs at a time.
type Cache struct {
	fetch provider
	now   func() time.Time

	mu    sync.Mutex
	creds sigv4.Credentials
	have  bool
}

// Retrieve returns the cached credentials, fetching them when there are none or they expire in
// less than refreshBefore (or half their life, for short-lived ones).
func (c *Cache) Retrieve(ctx context.Context) (sigv4.Credentials, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.have && !c.stale() {
		return c.creds, nil
	}
	creds, err := c.fetch(ctx)
	if err != nil {
		return sigv4.Credentials{}, err
	}
	c.creds, c.have = creds, true
	return creds, nil
}

func (c *Cache) stale() bool {
	if c.creds.Expires.IsZero() {
		return false
	}
	return !c.now().Add(refreshBefore).Before(c.creds.Expires)
}
