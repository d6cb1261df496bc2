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

package channels

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Retirement checks an object (its label, its field manager) and then deletes it by name. If
// someone replaces it in between, the replacement is not ours: it survives, the retirement fails
// and is retried, and the next run, finding an object channels never applied, leaves it alone.
func TestRetireSparesAnObjectReplacedAfterItsCheck(t *testing.T) {
	const ns, name = "e2e-retire-replaced", "replaced"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	location := testChannel(t, mem, "retire-replaced", ns, [][2]string{{"gone", configMap(ns, name, "gone")}}, nil)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	// Between channels' check and its delete, someone else replaces the ConfigMap.
	ctx := framework.Context(t)
	var once sync.Once
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return roundTripper(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, "/namespaces/"+ns+"/configmaps/"+name) {
				once.Do(func() {
					cms := env.Clientset.CoreV1().ConfigMaps(ns)
					require.NoError(t, cms.Delete(ctx, name, metav1.DeleteOptions{}))
					applyConfigMap(t, ns, name, "gone", "someone-else")
				})
			}
			return next.RoundTrip(r)
		})
	})
	location = testChannel(t, mem, "retire-replaced", ns, [][2]string{{"stays", configMap(ns, "stays", "stays")}}, nil)
	ch, err := apply.ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	applier, err := apply.New(cfg, apply.Options{Yes: true})
	require.NoError(t, err)
	_, err = applier.Apply(ctx, ch)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ConfigMap "+ns+"/"+name+": it was replaced since it was checked, and is left alone; retried on the next run")
	got, err := env.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err, "the replacement survives")
	assert.Equal(t, "someone-else", got.Data["owner"])
	assert.NotEmpty(t, record(t, ns, "gone"), "the record is kept for the next run")

	again := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, again.Err, again.Output)
	assert.Equal(t, apply.Retired, again.Outcomes()["gone"], again.Output)
	got, err = env.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err, "the replacement, which channels never applied, still survives")
	assert.Equal(t, "someone-else", got.Data["owner"])
	assert.Empty(t, record(t, ns, "gone"))
}
