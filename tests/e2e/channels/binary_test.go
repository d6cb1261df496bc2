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
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	kubecfg "k8s.io/kops/pkg/kubeconfig"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// channelCLI is the built channels binary, a kubeconfig for the test server, and a channel that
// `kops update cluster --yes` wrote to a file:// state store: the way a user runs it.
type channelCLI struct {
	binary, kubeconfig, location string
	objects                      []*unstructured.Unstructured
}

// The channels the benchmarks apply: the built-in CoreDNS channel of a minimal cluster, and the
// channel of the addon operators (operator CRD and Deployment, RBAC, the CoreDNS object).
var benchChannels = []struct{ name, goldenCase, flags string }{
	{"builtin", "minimal", ""},
	{"operator", "addon-operators", "ClusterAddons,UseAddonOperators"},
}

func newChannelCLI(tb testing.TB, binary, kubeconfig, goldenCase, flags string) *channelCLI {
	s := kopsenv.NewStoreAt(tb, goldenCase, "file://"+filepath.Join(tb.TempDir(), "state"))
	location := s.Update(tb, flags)
	return &channelCLI{binary: binary, kubeconfig: kubeconfig, location: location, objects: kopsenv.ManifestObjects(tb, location, nil)}
}

// apply runs `channels apply channel LOCATION --yes`, failing tb if it fails.
func (c *channelCLI) apply(tb testing.TB, extra ...string) (stdout, stderr string) {
	args := append([]string{"apply", "channel", c.location, "--yes", "--kubeconfig", c.kubeconfig}, extra...)
	stdout, stderr, err := kopsenv.Exec(c.binary, nil, args...)
	require.NoError(tb, err, "channels %v:\n%s%s", args, stdout, stderr)
	return stdout, stderr
}

// reset makes the next apply a cold one: the channel's objects are deleted (CRDs until they are
// gone) and every addon record is forgotten. Namespaces stay: without kube-controller-manager a
// deleted namespace stays Terminating for ever.
func (c *channelCLI) reset(tb testing.TB) {
	ctx := framework.Context(tb)
	disc, err := discovery.NewDiscoveryClientForConfig(env.Config)
	require.NoError(tb, err)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(tb, err)
	background := metav1.DeletePropagationBackground
	var crds []string
	for i := len(c.objects) - 1; i >= 0; i-- {
		obj := c.objects[i]
		gvk := obj.GroupVersionKind()
		if gvk.Kind == "Namespace" {
			continue
		}
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			continue // a custom kind whose CRD is gone already
		}
		var r dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
		if obj.GetNamespace() != "" {
			r = dyn.Resource(mapping.Resource).Namespace(obj.GetNamespace())
		}
		err = r.Delete(ctx, obj.GetName(), metav1.DeleteOptions{PropagationPolicy: &background})
		if err != nil && !apierrors.IsNotFound(err) {
			require.NoError(tb, err, "deleting %s %s", gvk.Kind, obj.GetName())
		}
		if gvk.Kind == "CustomResourceDefinition" {
			crds = append(crds, obj.GetName())
		}
	}
	for _, name := range crds {
		require.NoError(tb, waitGone(ctx, func() error {
			_, err := env.Clientset.Discovery().RESTClient().Get().AbsPath("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", name).DoRaw(ctx)
			return err
		}), "CRD %s", name)
	}
	forgetAllRecords(tb)
}

func waitGone(ctx context.Context, get func() error) error {
	for {
		err := get()
		if apierrors.IsNotFound(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// forgetAllRecords removes the addon records of every namespace.
func forgetAllRecords(tb testing.TB) {
	ctx := framework.Context(tb)
	list, err := env.Clientset.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(tb, err)
	for _, ns := range list.Items {
		var removals []string
		for key := range ns.Annotations {
			if strings.HasPrefix(key, "addons.k8s.io/") {
				removals = append(removals, `"`+key+`":null`)
			}
		}
		if len(removals) == 0 {
			continue
		}
		patch := `{"metadata":{"annotations":{` + strings.Join(removals, ",") + `}}}`
		_, err = env.Clientset.CoreV1().Namespaces().Patch(ctx, ns.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		require.NoError(tb, err)
	}
}

// The built binary applies both channels cold and then has nothing to do: exactly one request
// (the records' read). This keeps the benchmarks' code exercised by every test run.
func TestChannelsBinaryColdAndNoop(t *testing.T) {
	binary := kopsenv.Build(t, "./cmd/channels")
	kubeconfig := kopsenv.Kubeconfig(t, env)
	for _, bc := range benchChannels {
		t.Run(bc.name, func(t *testing.T) {
			c := newChannelCLI(t, binary, kubeconfig, bc.goldenCase, bc.flags)
			c.reset(t)
			stdout, stderr := c.apply(t, "-v=6")
			assert.Contains(t, stdout, "applied")
			cold := kopsenv.CountResponses(stderr)
			assert.Greater(t, cold, len(c.objects), "one request per object at least")
			assert.LessOrEqual(t, cold, kubecfg.DefaultBurst, "a cold apply stays within the client's burst")

			stdout, stderr = c.apply(t, "-v=6")
			assert.NotContains(t, stdout, "applied")
			assert.Equal(t, 1, kopsenv.CountResponses(stderr), "a no-op run reads the records and nothing else:\n%s", stderr)
		})
	}
}

// BenchmarkChannelsBinary runs the built `channels apply channel --yes` as a user does, one
// process per iteration. "cold" starts each iteration from a cluster without the channel's objects
// and records (namespaces excepted); "noop" re-applies an applied channel. requests/op is counted
// from one extra run at -v=6 (not timed).
func BenchmarkChannelsBinary(b *testing.B) {
	binary := kopsenv.Build(b, "./cmd/channels")
	kubeconfig := kopsenv.Kubeconfig(b, env)
	for _, bc := range benchChannels {
		c := newChannelCLI(b, binary, kubeconfig, bc.goldenCase, bc.flags)
		b.Run(bc.name+"/cold", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				c.reset(b)
				b.StartTimer()
				c.apply(b)
			}
			b.StopTimer()
			c.reset(b)
			_, stderr := c.apply(b, "-v=6")
			b.ReportMetric(float64(kopsenv.CountResponses(stderr)), "requests/op")
		})
		b.Run(bc.name+"/noop", func(b *testing.B) {
			c.apply(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.apply(b)
			}
			b.StopTimer()
			_, stderr := c.apply(b, "-v=6")
			b.ReportMetric(float64(kopsenv.CountResponses(stderr)), "requests/op")
		})
	}
}

// BenchmarkChannelsBinaryFirst times the operator channel's first apply on a fresh API server, as a
// user turning the operators on meets it: the server has never watched the CoreDNS kind, so its
// admission policy with params waits for the server's next refresh of policies and for its informer
// of the kind. One server is started per iteration, outside the timer (a few seconds each).
func BenchmarkChannelsBinaryFirst(b *testing.B) {
	binary := kopsenv.Build(b, "./cmd/channels")
	i := slices.IndexFunc(benchChannels, func(bc struct{ name, goldenCase, flags string }) bool { return bc.name == "operator" })
	require.GreaterOrEqual(b, i, 0)
	bc := benchChannels[i]
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		server, err := framework.New()
		require.NoError(b, err)
		c := newChannelCLI(b, binary, kopsenv.Kubeconfig(b, server), bc.goldenCase, bc.flags)
		b.StartTimer()
		c.apply(b)
		b.StopTimer()
		require.NoError(b, server.Stop())
	}
}
