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
	"maps"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func (c *Cluster) DeepCopy() *Cluster {
	if c == nil {
		return nil
	}
	out := &Cluster{TypeMeta: c.TypeMeta, Spec: c.Spec.deepCopy(), Unmodeled: c.Unmodeled.DeepCopy()}
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

func (s ClusterSpec) deepCopy() ClusterSpec {
	out := s
	out.Subnets = slices.Clone(s.Subnets)
	out.AdditionalNetworkCIDRs = slices.Clone(s.AdditionalNetworkCIDRs)
	out.Addons = slices.Clone(s.Addons)
	if n := s.Networking; n != nil {
		networking := NetworkingSpec{}
		if n.AmazonVPC != nil {
			networking.AmazonVPC = &AmazonVPCNetworkingSpec{}
		}
		if n.Cilium != nil {
			cilium := *n.Cilium
			networking.Cilium = &cilium
		}
		networking.Calico = clonePointer(n.Calico)
		networking.Canal = clonePointer(n.Canal)
		networking.Flannel = clonePointer(n.Flannel)
		networking.CNI = clonePointer(n.CNI)
		networking.Kubenet = clonePointer(n.Kubenet)
		networking.Weave = clonePointer(n.Weave)
		networking.KubeRouter = clonePointer(n.KubeRouter)
		networking.GCE = clonePointer(n.GCE)
		out.Networking = &networking
	}
	if s.KubeDNS != nil {
		out.KubeDNS = s.KubeDNS.deepCopy()
	}
	if s.Assets != nil {
		assets := *s.Assets
		out.Assets = &assets
	}
	if s.Authorization != nil {
		auth := AuthorizationSpec{}
		if s.Authorization.AlwaysAllow != nil {
			auth.AlwaysAllow = &AlwaysAllowAuthorizationSpec{}
		}
		if s.Authorization.RBAC != nil {
			auth.RBAC = &RBACAuthorizationSpec{}
		}
		out.Authorization = &auth
	}
	if p := s.PodMetadataAccess; p != nil {
		access := *p
		if p.Forward != nil {
			forward := *p.Forward
			forward.Port = clonePointer(p.Forward.Port)
			forward.NamespaceRestrictions = clonePointer(p.Forward.NamespaceRestrictions)
			access.Forward = &forward
		}
		out.PodMetadataAccess = &access
	}
	if t := s.ServiceAccountTokens; t != nil {
		out.ServiceAccountTokens = &ServiceAccountTokensSpec{AutomountDefault: clonePointer(t.AutomountDefault)}
	}
	if m := s.MetricsServer; m != nil {
		out.MetricsServer = &MetricsServerConfig{Enabled: clonePointer(m.Enabled), Image: m.Image, Insecure: clonePointer(m.Insecure), OperatorMode: m.OperatorMode}
	}
	if c := s.CertManager; c != nil {
		out.CertManager = &CertManagerConfig{Enabled: clonePointer(c.Enabled), Managed: clonePointer(c.Managed)}
	}
	return out
}

func (d *KubeDNSConfig) deepCopy() *KubeDNSConfig {
	out := *d
	out.UpstreamNameservers = slices.Clone(d.UpstreamNameservers)
	if d.StubDomains != nil {
		out.StubDomains = make(map[string][]string, len(d.StubDomains))
		for k, v := range d.StubDomains {
			out.StubDomains[k] = slices.Clone(v)
		}
	}
	out.CPURequest = copyQuantity(d.CPURequest)
	out.MemoryRequest = copyQuantity(d.MemoryRequest)
	out.MemoryLimit = copyQuantity(d.MemoryLimit)
	if d.Tolerations != nil {
		out.Tolerations = make([]corev1.Toleration, len(d.Tolerations))
		for i := range d.Tolerations {
			d.Tolerations[i].DeepCopyInto(&out.Tolerations[i])
		}
	}
	out.Affinity = d.Affinity.DeepCopy()
	out.PodAnnotations = maps.Clone(d.PodAnnotations)
	return &out
}

func (g *InstanceGroup) DeepCopy() *InstanceGroup {
	if g == nil {
		return nil
	}
	out := &InstanceGroup{TypeMeta: g.TypeMeta, Spec: g.Spec, Unmodeled: g.Unmodeled.DeepCopy()}
	g.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.MinSize = clonePointer(g.Spec.MinSize)
	out.Spec.MaxSize = clonePointer(g.Spec.MaxSize)
	out.Spec.Subnets = slices.Clone(g.Spec.Subnets)
	out.Spec.AdditionalUserData = slices.Clone(g.Spec.AdditionalUserData)
	if m := g.Spec.InstanceMetadata; m != nil {
		out.Spec.InstanceMetadata = &InstanceMetadataSpec{
			HTTPTokens:              clonePointer(m.HTTPTokens),
			HTTPPutResponseHopLimit: clonePointer(m.HTTPPutResponseHopLimit),
		}
	}
	return out
}

func copyQuantity(q *resource.Quantity) *resource.Quantity {
	if q == nil {
		return nil
	}
	c := q.DeepCopy()
	return &c
}

func clonePointer[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (u Unmodeled) DeepCopy() Unmodeled {
	if u == nil {
		return nil
	}
	out := make(Unmodeled, len(u))
	for i, f := range u {
		out[i] = UnmodeledField{
			Path:  append(FieldPath(nil), f.Path...),
			Value: deepCopyValue(f.Value),
		}
	}
	return out
}

// deepCopyValue copies a decoded YAML tree; unusual container shapes are copied by reflection.
func deepCopyValue(v interface{}) interface{} {
	switch t := v.(type) {
	case nil:
		return nil
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, e := range t {
			m[k] = deepCopyValue(e)
		}
		return m
	case map[interface{}]interface{}:
		m := make(map[interface{}]interface{}, len(t))
		for k, e := range t {
			m[k] = deepCopyValue(e)
		}
		return m
	case []interface{}:
		s := make([]interface{}, len(t))
		for i, e := range t {
			s[i] = deepCopyValue(e)
		}
		return s
	}
	return deepCopyReflect(reflect.ValueOf(v)).Interface()
}

func deepCopyReflect(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), deepCopyElem(it.Value(), v.Type().Elem()))
		}
		return m
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			s.Index(i).Set(deepCopyElem(v.Index(i), v.Type().Elem()))
		}
		return s
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopyElem(v.Elem(), v.Type().Elem()))
		return p
	}
	return v
}

func deepCopyElem(v reflect.Value, t reflect.Type) reflect.Value {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Zero(t)
		}
		return reflect.ValueOf(deepCopyValue(v.Interface())).Convert(t)
	}
	return deepCopyReflect(v)
}
