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

package manager

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// appliedState remembers, per managed object, the hash of the last rendering applied and the
// resourceVersion the server answered. Any other write changes the resourceVersion, so the object
// is applied again.
type appliedState struct {
	mu     sync.Mutex
	record map[string]appliedRecord
}

type appliedRecord struct {
	hash, resourceVersion string
	// addon is the object's channels addon label when this process last wrote it (heldForHandover).
	addon string
}

func newAppliedState() *appliedState {
	return &appliedState{record: map[string]appliedRecord{}}
}

// upToDate reports whether the same rendering was applied and the cache still holds what it returned.
func (s *appliedState) upToDate(key, hash string, cached *unstructured.Unstructured) bool {
	if cached == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.record[key]
	return ok && r.hash == hash && r.resourceVersion == cached.GetResourceVersion()
}

func (s *appliedState) applied(key, hash, resourceVersion, addon string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.record[key] = appliedRecord{hash: hash, resourceVersion: resourceVersion, addon: addon}
}

// forget makes the object be applied again; the addon it was last written under is kept.
func (s *appliedState) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.record[key]; ok {
		s.record[key] = appliedRecord{addon: r.addon}
	}
}

// lastAddon is the object's addon label when this process last wrote it; false if it never did.
func (s *appliedState) lastAddon(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.record[key]
	return r.addon, ok
}

func objectHash(u *unstructured.Unstructured) (string, error) {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
