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

package kops

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/randfill"
)

// Every field, including ones added to the types later, must be copied and share no memory: the
// copies are filled at random, compared, and walked for shared pointers, maps and slices.
func TestDeepCopySharesNothing(t *testing.T) {
	filler := randfill.New().NilChance(0).NumElements(1, 2).Funcs(
		func(q *resource.Quantity, c randfill.Continue) { *q = resource.MustParse("100m") },
		func(u *Unmodeled, c randfill.Continue) {
			*u = Unmodeled{{Path: FieldPath{{Key: "spec"}, {Key: "x"}}, Value: map[string]interface{}{"a": []interface{}{"b"}}}}
		},
	)
	for i := 0; i < 20; i++ {
		c := &Cluster{}
		filler.Fill(c)
		copied := c.DeepCopy()
		require.Equal(t, c, copied)
		assertNoSharedMemory(t, reflect.ValueOf(c), reflect.ValueOf(copied), "Cluster")

		g := &InstanceGroup{}
		filler.Fill(g)
		copiedGroup := g.DeepCopy()
		require.Equal(t, g, copiedGroup)
		assertNoSharedMemory(t, reflect.ValueOf(g), reflect.ValueOf(copiedGroup), "InstanceGroup")
	}
}

// assertNoSharedMemory walks two equal values and fails where both point at the same memory.
func assertNoSharedMemory(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if a.IsNil() || b.IsNil() {
			return
		}
		// Zero-size values all live at one address in Go; sharing them shares nothing.
		zeroSize := a.Kind() == reflect.Pointer && a.Type().Elem().Size() == 0
		if !zeroSize && (a.Kind() != reflect.Slice || a.Len() > 0) {
			assert.NotEqual(t, a.Pointer(), b.Pointer(), "%s is shared", path)
		}
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !a.IsNil() && !b.IsNil() {
			assertNoSharedMemory(t, a.Elem(), b.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() {
				assertNoSharedMemory(t, a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < a.Len() && i < b.Len(); i++ {
			assertNoSharedMemory(t, a.Index(i), b.Index(i), path+"[]")
		}
	case reflect.Map:
		for it := a.MapRange(); it.Next(); {
			assertNoSharedMemory(t, it.Value(), b.MapIndex(it.Key()), path+"{}")
		}
	}
}
