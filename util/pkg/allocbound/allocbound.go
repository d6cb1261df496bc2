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
	"runtime/metrics"
	"testing"
)

// Base and PerByte are the default allowance, set well above what every decoder of this project
// allocates on small documents and on large ones (a Cluster with many unknown fields, a deeply
// nested list), so that only a blow-up exceeds it.
const (
	Base    = 8 << 20
	PerByte = 1 << 10
)

const allocsMetric = "/gc/heap/allocs:bytes"

// Bytes returns how many heap bytes were allocated while f ran. It reads the runtime's cumulative
// counter, which every goroutine adds to and which the runtime updates a span at a time, so it is
// exact to a few hundred KiB: enough to tell linear from quadratic.
func Bytes(f func()) uint64 {
	sample := []metrics.Sample{{Name: allocsMetric}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

// Check runs f, which decodes an input of inputLen bytes, and fails t when it allocated more than
// Base + PerByte*inputLen bytes.
func Check(t testing.TB, inputLen int, f func()) {
	t.Helper()
	limit := uint64(Base) + uint64(PerByte)*uint64(inputLen)
	if got := Bytes(f); got > limit {
		t.Errorf("decoding %d bytes allocated %d bytes, more than the %d allowed: work is not proportional to the input", inputLen, got, limit)
	}
}
