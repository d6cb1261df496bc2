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

package apply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"
)

// resourceFor finds the API resource of an object: a kind of a CRD this run established is known
// from the CRD; any other comes from discovery. A custom kind whose CRD was applied by someone else
// may not be served yet: discovery is refreshed, ever less often, until it appears or the wait
// times out.
func (a *Applier) resourceFor(ctx context.Context, obj *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := obj.GroupVersionKind()
	a.crdMu.Lock()
	mapping, ok := a.crdMappings[gvk]
	a.crdMu.Unlock()
	if !ok {
		var err error
		mapping, err = a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version)
		deadline := time.Now().Add(a.opts.WaitTimeout)
		for delay := 20 * time.Millisecond; meta.IsNoMatchError(err) && time.Now().Before(deadline); delay = min(2*delay, time.Second) {
			if err = sleep(ctx, delay); err != nil {
				return nil, err
			}
			a.resources.Reset()
			mapping, err = a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version)
		}
		if err != nil {
			return nil, fmt.Errorf("finding the API resource of %s: %w", gvk, err)
		}
	}
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if obj.GetNamespace() == "" {
			return nil, errors.New("a namespaced object needs metadata.namespace")
		}
		return a.dynamic.Resource(mapping.Resource).Namespace(obj.GetNamespace()), nil
	}
	return a.dynamic.Resource(mapping.Resource), nil
}

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// waitEstablished waits until the API server serves the CRD's resources, then remembers them and
// reads one of them (see warmCustomResources). A single API server establishes a new CRD within
// milliseconds, so the first checks come quickly and then ever less often.
func (a *Applier) waitEstablished(ctx context.Context, name string) error {
	deadline := time.Now().Add(a.opts.WaitTimeout)
	for delay := 10 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		crd, err := a.dynamic.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("waiting for CRD %s: %w", name, err)
		}
		if established(crd) {
			a.warmCustomResources(ctx, a.rememberCRD(crd))
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("CRD %s was not established within %s", name, a.opts.WaitTimeout)
		}
		if err := sleep(ctx, delay); err != nil {
			return err
		}
	}
}

func established(crd *unstructured.Unstructured) bool {
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conditions {
		if m, ok := c.(map[string]interface{}); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// warmCustomResources lists at most one object of a CRD's resource just established. The API server
// sets up a custom resource's storage at the first request for it; until then an informer of the
// server's own for that kind does not sync, and it retries only a second later. The admission
// policies that take the kind as their params (paramKind) wait for that informer: without this
// read, the first cold apply of the operator channel waited about a second longer for its policy
// to be enforced (docs/performance.md). The read is an optimisation: its error is ignored, and
// whatever follows sees the resource's real state.
func (a *Applier) warmCustomResources(ctx context.Context, mapping *meta.RESTMapping) {
	if mapping == nil {
		return
	}
	if _, err := a.dynamic.Resource(mapping.Resource).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
		klog.V(2).Infof("reading %s once after its CRD was established: %v", mapping.Resource, err)
	}
}

// rememberCRD records the resources an established CRD serves, from the names the API server
// accepted for it, and returns one of them (nil if none).
func (a *Applier) rememberCRD(crd *unstructured.Unstructured) *meta.RESTMapping {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "status", "acceptedNames", "kind")
	plural, _, _ := unstructured.NestedString(crd.Object, "status", "acceptedNames", "plural")
	scopeName, _, _ := unstructured.NestedString(crd.Object, "spec", "scope")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if group == "" || kind == "" || plural == "" {
		a.resources.Reset() // fall back to discovery
		return nil
	}
	scope := meta.RESTScopeRoot
	if scopeName == "Namespaced" {
		scope = meta.RESTScopeNamespace
	}
	a.crdMu.Lock()
	defer a.crdMu.Unlock()
	var first *meta.RESTMapping
	for _, v := range versions {
		m, _ := v.(map[string]interface{})
		version, _ := m["name"].(string)
		if served, _ := m["served"].(bool); !served || version == "" {
			continue
		}
		gvk := schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
		mapping := &meta.RESTMapping{
			Resource:         schema.GroupVersionResource{Group: group, Version: version, Resource: plural},
			GroupVersionKind: gvk,
			Scope:            scope,
		}
		a.crdMappings[gvk] = mapping
		if first == nil {
			first = mapping
		}
	}
	return first
}
