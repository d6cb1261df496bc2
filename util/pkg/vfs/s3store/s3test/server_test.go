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

package s3test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server that exits before it is ready (as weed does when a port it was given is taken) is
// started again on other ports, up to attempts times, and the error says what each attempt saw.
func TestStartTriesAgainWhenTheServerExits(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "weed")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho \"bind: address already in use $*\"\nexit 1\n"), 0o755))
	_, err := start(bin)
	require.Error(t, err)
	assert.ErrorIs(t, err, errExited)
	for _, want := range []string{"attempt 1:", "attempt 2:", "attempt 3:", "bind: address already in use"} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), "attempt 4:")
	assert.Contains(t, err.Error(), "exited before it was ready", "an exited server is not waited for as a slow one")
	assert.NotContains(t, err.Error(), "did not get ready in")
}

// The ports are free and below the range the kernel hands out on its own.
func TestFreePortsBelowTheEphemeralRange(t *testing.T) {
	ports, err := freePorts(8)
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, p := range ports {
		assert.GreaterOrEqual(t, p, 10000)
		assert.Less(t, p, ephemeralLow())
		assert.False(t, seen[p], "port %d twice", p)
		seen[p] = true
	}
}
