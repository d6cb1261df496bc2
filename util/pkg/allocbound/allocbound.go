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

// Base and PerByte are set well above what every decoder here allocates, so only a blow-up exceeds them.
const (
	Base    = 8 << 20
	PerByte = 1 << 10
)

const allocsMetric = "/gc/heap/allocs:bytes"

// Bytes returns the heap bytes allocated while f ran, from the runtime's cumulative counter: coarse,
// but enough to tell linear from quadratic.
func Bytes(f func()) uint64 {
	sample := []metrics.Sample{{Name: allocsMetric}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

func Check(t testing.TB, inputLen int, f func()) {
	t.Helper()
	limit := uint64(Base) + uint64(PerByte)*uint64(inputLen)
	if got := Bytes(f); got > limit {
		t.Errorf("decoding %d bytes allocated %d bytes, more than the %d allowed: work is not proportional to the input", inputLen, got, limit)
	}
}
