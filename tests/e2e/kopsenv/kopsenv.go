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

package kopsenv

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/upup/pkg/fi/cloudup"
	"k8s.io/kops/util/pkg/vfs"
)

// Requests counts the requests a client sends, by HTTP method.
type Requests struct {
	mu     sync.Mutex
	counts map[string]int
}

func (r *Requests) RoundTripper(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		r.mu.Lock()
		r.counts[req.Method]++
		r.mu.Unlock()
		return next.RoundTrip(req)
	})
}

// Mutating is how many requests could have changed something.
func (r *Requests) Mutating() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts[http.MethodPost] + r.counts[http.MethodPut] + r.counts[http.MethodPatch] + r.counts[http.MethodDelete]
}

// Total is how many requests were sent.
func (r *Requests) Total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.counts {
		n += c
	}
	return n
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Counted is the admin's config with every request counted.
func Counted(env *framework.Env) (*rest.Config, *Requests) {
	r := &Requests{counts: map[string]int{}}
	cfg := rest.CopyConfig(env.Config)
	cfg.WrapTransport = r.RoundTripper
	return cfg, r
}

// Store is a state store in memory holding one cluster from a golden case's input.
type Store struct {
	Mem       *vfs.MemFS
	clientset *client.Clientset
	name      string
}

// NewStore creates the cluster of tests/integration/update_cluster/<goldenCase> in memory.
func NewStore(t testing.TB, goldenCase string) *Store {
	return NewStoreAt(t, goldenCase, "memfs://e2e")
}

// NewStoreAt creates the cluster in the state store at location (file:// or memfs://).
func NewStoreAt(t testing.TB, goldenCase, location string) *Store {
	input, err := os.ReadFile(filepath.Join(RepoRoot(t), "tests", "integration", "update_cluster", goldenCase, "in-v1alpha2.yaml"))
	require.NoError(t, err)
	objs, _, err := kopscodecs.Decode(goldenCase, input, true)
	require.NoError(t, err)
	n, err := client.NewClusterFromObjects(objs)
	require.NoError(t, err)
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath(location, mem)
	require.NoError(t, err)
	s := &Store{Mem: mem, clientset: client.New(base), name: n.Cluster.Name}
	require.NoError(t, s.clientset.CreateCluster(n))
	return s
}

// Update runs `kops update cluster --yes` with the flags and returns the channel's location.
func (s *Store) Update(t testing.TB, flags string) string {
	set, _ := featureflag.Parse(flags)
	result, err := cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
		Clientset: s.clientset, ClusterName: s.name, Flags: set, Target: cloudup.TargetDirect,
	})
	require.NoError(t, err)
	return result.ConfigBase + "/addons/bootstrap-channel.yaml"
}

// SetOperatorMode stores spec.kubeDNS.operatorMode, as `kops edit cluster` would.
func (s *Store) SetOperatorMode(t testing.TB, mode string) {
	s.EditCluster(t, func(cluster *kops.Cluster) {
		if cluster.Spec.KubeDNS == nil {
			cluster.Spec.KubeDNS = &kops.KubeDNSConfig{}
		}
		cluster.Spec.KubeDNS.OperatorMode = mode
	})
}

// EditCluster changes the stored cluster with edit, as `kops edit cluster` would.
func (s *Store) EditCluster(t testing.TB, edit func(*kops.Cluster)) {
	cluster, _, err := s.clientset.GetCluster(s.name)
	require.NoError(t, err)
	edit(cluster)
	require.NoError(t, s.clientset.UpdateCluster(cluster))
}

// Applied is what one `channels apply channel` did.
type Applied struct {
	Results  []apply.Result
	Err      error
	Requests *Requests
	Output   string
}

// Outcomes maps addon names to their outcomes.
func (a *Applied) Outcomes() map[string]apply.Outcome {
	out := map[string]apply.Outcome{}
	for _, r := range a.Results {
		out[r.Name] = r.Outcome
	}
	return out
}

// Apply runs `channels apply channel LOCATION [--yes]` as the admin, counting requests.
func Apply(t testing.TB, env *framework.Env, location string, mem *vfs.MemFS, yes bool) *Applied {
	return ApplyWith(t, env, location, mem, apply.Options{Yes: yes})
}

// ApplyWith is Apply with the given options (Out is set here).
func ApplyWith(t testing.TB, env *framework.Env, location string, mem *vfs.MemFS, opts apply.Options) *Applied {
	ch, err := apply.ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	cfg, counts := Counted(env)
	var out strings.Builder
	opts.Out = &out
	applier, err := apply.New(cfg, opts)
	require.NoError(t, err)
	results, err := applier.Apply(context.Background(), ch)
	return &Applied{Results: results, Err: err, Requests: counts, Output: out.String()}
}

// ManifestObjects are the objects of every addon in a channel.
func ManifestObjects(t testing.TB, location string, mem *vfs.MemFS) []*unstructured.Unstructured {
	ch, err := apply.ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	var objs []*unstructured.Unstructured
	for _, a := range ch.Addons {
		objs = append(objs, a.Objects...)
	}
	return objs
}

// RepoRoot is the checkout's root, found from the working directory.
func RepoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "tests", "integration", "update_cluster")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no repository root above the working directory")
		dir = parent
	}
}
