package kops

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// DeepCopy returns a copy of c that shares no memory with it, Unmodeled included.
//
// The modeled fields are copied by a JSON round-trip, so a field added to the types is copied
// without touching this file. The round-trip is as lossy as the state store's own encoding and no
// more: timestamps keep whole seconds and empty slices and maps come back nil.
func (c *Cluster) DeepCopy() *Cluster {
	if c == nil {
		return nil
	}
	out := &Cluster{}
	jsonCopy(c, out)
	out.Unmodeled = c.Unmodeled.DeepCopy()
	return out
}

// DeepCopy returns a copy of g that shares no memory with it, Unmodeled included; see
// Cluster.DeepCopy.
func (g *InstanceGroup) DeepCopy() *InstanceGroup {
	if g == nil {
		return nil
	}
	out := &InstanceGroup{}
	jsonCopy(g, out)
	out.Unmodeled = g.Unmodeled.DeepCopy()
	return out
}

// jsonCopy round-trips in into out. The API types hold only JSON-encodable values, so a failure is
// a programming error in the types and panics rather than returning a half copy.
func jsonCopy(in, out interface{}) {
	b, err := json.Marshal(in)
	if err != nil {
		panic(fmt.Sprintf("deep copy of %T: %v", in, err))
	}
	if err := json.Unmarshal(b, out); err != nil {
		panic(fmt.Sprintf("deep copy of %T: %v", in, err))
	}
}

// DeepCopy returns a copy of u whose paths and values share no memory with u.
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

// deepCopyValue copies a decoded YAML tree. The common decoder shapes are copied directly; any
// other map, slice or pointer (another decoder's choice) is copied by reflection. Scalars are
// immutable and returned as they are.
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

// deepCopyElem copies a container element, going through deepCopyValue for interface elements so
// their dynamic value is copied, and converting back to the element type.
func deepCopyElem(v reflect.Value, t reflect.Type) reflect.Value {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Zero(t)
		}
		return reflect.ValueOf(deepCopyValue(v.Interface())).Convert(t)
	}
	return deepCopyReflect(v)
}
