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

package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kubeDNS", "kubeDNS", 0},
		{"kubeDNS", "kubedns", 0},
		{"kubeDSN", "kubeDNS", 1},
		{"provder", "provider", 1},
		{"networkID", "networkCIDR", 2},
		{"UseAddonOperatorz", "UseAddonOperators", 1},
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"héllo", "hello", 1}, // counts runes, not bytes
	}
	for _, tc := range cases {
		t.Run(tc.a+"~"+tc.b, func(t *testing.T) {
			assert.Equal(t, tc.want, Distance(tc.a, tc.b))
			assert.Equal(t, tc.want, Distance(tc.b, tc.a), "distance is symmetric")
		})
	}
}

func TestNearest(t *testing.T) {
	best, d, ok := Nearest("serverIp", []string{"provider", "serverIP", "domain"})
	assert.True(t, ok)
	assert.Equal(t, "serverIP", best)
	assert.Equal(t, 0, d)

	_, _, ok = Nearest("x", nil)
	assert.False(t, ok)

	best, _, _ = Nearest("ab", []string{"ax", "xb"})
	assert.Equal(t, "ax", best, "ties go to the earlier candidate")
}

func TestClose(t *testing.T) {
	cases := []struct {
		name     string
		distance int
		want     bool
	}{
		{"id", 0, true},
		{"id", 1, false},
		{"zone", 1, true},
		{"zone", 2, false},
		{"upstreamNameserver", 2, true},
		{"upstreamNameserver", 3, false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Close(tc.name, tc.distance), "%s at %d", tc.name, tc.distance)
	}
}
