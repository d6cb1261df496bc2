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
)

// resourceFor finds the API resource of an object: a kind of a CRD this run established is known
// from the CRD; any other comes from discovery. A custom kind whose CRD was applied by someone else
// may not be served yet: discovery is refreshed, ever less often, until it appears or the wait
// times out.
func (a *Applier) resourceFor(ctx context.Context, obj *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := obj.GroupVersionKind()
	mapping, ok := a.crdMappings[gvk]
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

// waitEstablished waits until the API server serves the CRD's resources, then remembers them. A
// single API server establishes a new CRD within milliseconds, so the first checks come quickly
// and then ever less often.
func (a *Applier) waitEstablished(ctx context.Context, name string) error {
	deadline := time.Now().Add(a.opts.WaitTimeout)
	for delay := 10 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		crd, err := a.dynamic.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("waiting for CRD %s: %w", name, err)
		}
		if established(crd) {
			a.rememberCRD(crd)
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

// rememberCRD records the resources an established CRD serves, from the names the API server
// accepted for it.
func (a *Applier) rememberCRD(crd *unstructured.Unstructured) {
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "status", "acceptedNames", "kind")
	plural, _, _ := unstructured.NestedString(crd.Object, "status", "acceptedNames", "plural")
	scopeName, _, _ := unstructured.NestedString(crd.Object, "spec", "scope")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	if group == "" || kind == "" || plural == "" {
		a.resources.Reset() // fall back to discovery
		return
	}
	scope := meta.RESTScopeRoot
	if scopeName == "Namespaced" {
		scope = meta.RESTScopeNamespace
	}
	for _, v := range versions {
		m, _ := v.(map[string]interface{})
		version, _ := m["name"].(string)
		if served, _ := m["served"].(bool); !served || version == "" {
			continue
		}
		gvk := schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
		a.crdMappings[gvk] = &meta.RESTMapping{
			Resource:         schema.GroupVersionResource{Group: group, Version: version, Resource: plural},
			GroupVersionKind: gvk,
			Scope:            scope,
		}
	}
}
