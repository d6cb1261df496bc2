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
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// serverResources is what the API server serves, read at most once per Reset from its aggregated
// discovery (two requests: /api and /apis), or per group version from servers without it.
// client-go's discovery client would do the same, but it links every built-in API type into the
// binary, which doubles the start-up time of a command that usually sends one request.
type serverResources struct {
	client rest.Interface

	mu     sync.Mutex
	loaded bool
	// versions lists each group's versions, preferred first.
	versions map[string][]string
	byGVK    map[schema.GroupVersionKind]served
}

// served is one resource of one group version.
type served struct {
	mapping *meta.RESTMapping
}

const aggregatedDiscovery = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;q=0.9"

// Reset forgets what was read, so that the next lookup asks the server again.
func (s *serverResources) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded = false
}

// RESTMapping finds a kind's resource, in the given version or the server's preferred one. A kind
// the server does not serve is a meta.NoKindMatchError.
func (s *serverResources) RESTMapping(ctx context.Context, gk schema.GroupKind, version ...string) (*meta.RESTMapping, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(ctx); err != nil {
		return nil, err
	}
	versions := version
	if len(versions) == 0 {
		versions = s.versions[gk.Group]
	}
	for _, v := range versions {
		if r, ok := s.byGVK[gk.WithVersion(v)]; ok {
			return r.mapping, nil
		}
	}
	return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: version}
}

func (s *serverResources) load(ctx context.Context) error {
	if s.loaded {
		return nil
	}
	s.versions = map[string][]string{}
	s.byGVK = map[schema.GroupVersionKind]served{}
	for _, root := range []string{"/api", "/apis"} {
		if err := s.loadRoot(ctx, root); err != nil {
			return fmt.Errorf("discovering the server's resources: %w", err)
		}
	}
	s.loaded = true
	return nil
}

func (s *serverResources) get(ctx context.Context, path string, accept string, into interface{}) error {
	data, err := s.client.Get().AbsPath(path).SetHeader("Accept", accept).DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

func (s *serverResources) loadRoot(ctx context.Context, root string) error {
	var doc struct {
		Kind string `json:"kind"`
		apidiscoveryv2.APIGroupDiscoveryList
		Versions []string          `json:"versions"` // APIVersions, from /api without aggregation
		Groups   []metav1.APIGroup `json:"groups"`   // APIGroupList, from /apis without aggregation
	}
	if err := s.get(ctx, root, aggregatedDiscovery, &doc); err != nil {
		return err
	}
	if doc.Kind == "APIGroupDiscoveryList" {
		for _, g := range doc.Items {
			for _, v := range g.Versions {
				s.versions[g.Name] = append(s.versions[g.Name], v.Version)
				for _, r := range v.Resources {
					if r.ResponseKind == nil || r.ResponseKind.Kind == "" {
						continue
					}
					s.add(schema.GroupVersion{Group: g.Name, Version: v.Version}, r.ResponseKind.Kind, r.Resource, r.Scope == apidiscoveryv2.ScopeNamespace)
				}
			}
		}
		return nil
	}
	// A server without aggregated discovery: one request per group version.
	var gvs []schema.GroupVersion
	for _, v := range doc.Versions {
		gvs = append(gvs, schema.GroupVersion{Version: v})
	}
	for _, g := range doc.Groups {
		ordered := []string{g.PreferredVersion.Version}
		for _, v := range g.Versions {
			if v.Version != g.PreferredVersion.Version {
				ordered = append(ordered, v.Version)
			}
		}
		for _, v := range ordered {
			gvs = append(gvs, schema.GroupVersion{Group: g.Name, Version: v})
		}
	}
	for _, gv := range gvs {
		s.versions[gv.Group] = append(s.versions[gv.Group], gv.Version)
		var list metav1.APIResourceList
		if err := s.get(ctx, root+"/"+gv.String(), "application/json", &list); err != nil {
			return err
		}
		for _, r := range list.APIResources {
			if r.Kind != "" && !strings.Contains(r.Name, "/") {
				s.add(gv, r.Kind, r.Name, r.Namespaced)
			}
		}
	}
	return nil
}

func (s *serverResources) add(gv schema.GroupVersion, kind, resource string, namespaced bool) {
	scope := meta.RESTScopeRoot
	if namespaced {
		scope = meta.RESTScopeNamespace
	}
	gvk := gv.WithKind(kind)
	s.byGVK[gvk] = served{
		mapping: &meta.RESTMapping{Resource: gv.WithResource(resource), GroupVersionKind: gvk, Scope: scope},
	}
}
