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

package operatortest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLeavesAndAdditions(t *testing.T) {
	obj := map[string]interface{}{
		"metadata": map[string]interface{}{"name": "a", "labels": map[string]interface{}{"k8s.io/x": "y"}},
		"spec":     map[string]interface{}{"n": int64(1), "on": true, "list": []interface{}{map[string]interface{}{"s": ""}}},
	}
	leaves := Leaves(obj, func(path string) bool { return path == "metadata.name" })
	var paths []string
	for _, m := range leaves {
		paths = append(paths, m.Path)
	}
	assert.Equal(t, []string{`metadata.labels["k8s.io/x"]`, "spec.list[0].s", "spec.n", "spec.on"}, paths)
	assert.Equal(t, "yx", leaves[0].Object["metadata"].(map[string]interface{})["labels"].(map[string]interface{})["k8s.io/x"])
	assert.Equal(t, "x", leaves[1].Object["spec"].(map[string]interface{})["list"].([]interface{})[0].(map[string]interface{})["s"])
	assert.Equal(t, int64(2), leaves[2].Object["spec"].(map[string]interface{})["n"])
	assert.Equal(t, false, leaves[3].Object["spec"].(map[string]interface{})["on"])
	assert.Equal(t, int64(1), obj["spec"].(map[string]interface{})["n"], "the original is untouched")

	adds := Additions(obj, func(string) bool { return false }, func(string, map[string]interface{}) map[string]interface{} {
		return map[string]interface{}{"extra": "v", "n": int64(9)}
	})
	paths = nil
	for _, m := range adds {
		paths = append(paths, m.Path)
	}
	require.Contains(t, paths, "spec.extra (added)")
	assert.NotContains(t, paths, "spec.n (added)", "an existing key is a leaf's business")
	assert.Len(t, adds, 9, "extra in each of the five maps, n in the four that lack it")
}
