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

package main

import (
	"bytes"
	"go/build"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/model/addons"
)

// Every operator of the registry is listed with a binary that is a command of this repository:
// what `make images` builds exists.
func TestListNamesEveryOperatorAndItsCommand(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, list(&out))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	operators := addons.Operators()
	require.Len(t, lines, len(operators))
	for i, o := range operators {
		fields := strings.Fields(lines[i])
		require.Len(t, fields, 2, lines[i])
		assert.Equal(t, o.Descriptor.AddonName, fields[0])
		assert.True(t, strings.HasPrefix(fields[1], "./cmd/"), "%s: a command of this repository", fields[1])
		pkg, err := build.ImportDir(filepath.Join("..", "..", fields[1]), 0)
		require.NoError(t, err, fields[1])
		assert.Equal(t, "main", pkg.Name, fields[1])
	}
}
