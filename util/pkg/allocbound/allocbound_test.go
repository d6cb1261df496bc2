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

package allocbound

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

var sink []byte

func TestBytesSeesAllocations(t *testing.T) {
	got := Bytes(func() { sink = make([]byte, 64<<20) })
	assert.GreaterOrEqual(t, got, uint64(64<<20))
	assert.Less(t, got, uint64(65<<20))
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name     string
		inputLen int
		alloc    int
		fails    bool
	}{
		{"small input, small work", 10, 1 << 10, false},
		{"large input, proportional work", 64 << 10, 32 << 20, false},
		{"small input, large work", 10, 32 << 20, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			Check(rec, tc.inputLen, func() { sink = make([]byte, tc.alloc) })
			assert.Equal(t, tc.fails, rec.failed)
		})
	}
}

// recorder notes a failure instead of failing the test that holds it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = true }
