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

package manifesttest

import (
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

type Decoded struct {
	Keys    []string
	Objects map[string]metav1.Object
}

func Decode(t testing.TB, data []byte) *Decoded {
	t.Helper()
	objs, err := kubemanifest.DecodeStrict(data)
	require.NoError(t, err)
	d := &Decoded{Objects: map[string]metav1.Object{}}
	for _, o := range objs {
		key := o.Key()
		require.NotContains(t, d.Objects, key, "an object twice")
		d.Keys = append(d.Keys, key)
		d.Objects[key] = o.Typed
	}
	return d
}

func Get[T metav1.Object](t testing.TB, d *Decoded, key string) T {
	t.Helper()
	obj, ok := d.Objects[key]
	require.True(t, ok, "missing %s", key)
	typed, ok := obj.(T)
	require.True(t, ok, "%s has type %T", key, obj)
	return typed
}

func All[T metav1.Object](d *Decoded) []T {
	var out []T
	for _, key := range d.Keys {
		if typed, ok := d.Objects[key].(T); ok {
			out = append(out, typed)
		}
	}
	return out
}
