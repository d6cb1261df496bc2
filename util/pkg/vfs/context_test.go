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

package vfs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContextResolvesMemFSOnlyWhenItHasOne(t *testing.T) {
	mem := &MemFS{}
	p, err := NewContext(mem).ParsePath("memfs://s/a")
	require.NoError(t, err)
	require.NoError(t, p.WriteFile([]byte("x")))

	for name, c := range map[string]*Context{"nil": nil, "no store": NewContext(nil), "of a file path": ContextOf(pathOf("/tmp"))} {
		_, err := c.ParsePath("memfs://s/a")
		assert.ErrorContains(t, err, "memfs:// is only available", name)
		assert.False(t, c.HasMemFS(), name)
		f, err := c.ParsePath("file:///srv/kops")
		require.NoError(t, err, name)
		assert.Equal(t, "file:///srv/kops", f.String(), name)
	}

	// A store's context resolves its neighbours in the same store.
	sibling, err := ContextOf(p).ParsePath("memfs://s/a")
	require.NoError(t, err)
	data, err := sibling.ReadFile()
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))
}
