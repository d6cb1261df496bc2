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

package confine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// What the server writes into an object is not compared with the rendering; it is judged by
// what the request itself did. On create, the request's own fields are its field manager's entry
// in managedFields (the server computes that entry before admission, and drops managedFields a
// create sends); on update, the old object is the reference.

// unrenderedAllocated are, per top-level key, the allocated keys the rendering leaves to the server.
func (o *ScopeObject) unrenderedAllocated() map[string][]string {
	out := map[string][]string{}
	for k, keys := range kindOf(o.Kind).Allocated {
		rendered, _ := o.Rendered[k].(map[string]interface{})
		for _, a := range keys {
			if _, ok := rendered[a]; !ok {
				out[k] = append(out[k], a)
			}
		}
	}
	return out
}

// allocatedCheck holds when a create did not ask for an allocated key the rendering leaves out
// (no entry of managedFields owns it: a headless Service, or another's address) and an update
// keeps the old object's value. Empty when the rendering fixes every allocated key.
func (o *ScopeObject) allocatedCheck() (expression, message string) {
	allocated := o.unrenderedAllocated()
	var owned, kept, named []string
	for _, k := range slices.Sorted(maps.Keys(allocated)) {
		var fields []string
		for _, a := range allocated[k] {
			fields = append(fields, "f:"+a)
			kept = append(kept, `object.`+k+`.?`+a+` == oldObject.`+k+`.?`+a)
			named = append(named, k+"."+a)
		}
		owned = append(owned, `dyn(m).?fieldsV1[?`+celString("f:"+k)+`].orValue({}).exists(f, f in `+celStrings(fields)+`)`)
	}
	if len(named) == 0 {
		return "", ""
	}
	return `request.operation == "CREATE" ? !object.metadata.?managedFields.orValue([]).exists(m, ` + strings.Join(owned, " || ") + `) : ` +
			`(` + allOf(kept...) + `)`,
		strings.Join(named, ", ") + " left to the server on create and kept on update"
}

// managedFieldsVariable is the name of the policy variable managedFieldsKept defines.
const managedFieldsVariable = "managed_fields_kept"

// managedFieldsKept holds when an update leaves the entries of every other field manager in
// managedFields as the server's own bookkeeping can: an entry may lose fields (the operator took
// or removed them) and an Update entry may go when it has none left, but no entry is added or
// grows, and no Apply entry goes: channels decides by its own whether it made an object. (An
// entry's time is not judged: admission is shown the old one, whatever the request sends, and
// nothing decides by it.) An update or patch may send managedFields, and admission cannot tell
// an apply from them, so an Apply entry emptied by the operator's own apply is refused too.
// Field sets are compared to depth levels, one below the deepest rendered object; below that
// they must be equal.
func managedFieldsKept(manager string, depth int) string {
	own := celString(manager)
	entries := `object.metadata.?managedFields.orValue([])`
	old := `oldObject.metadata.?managedFields.orValue([])`
	same := func(a, b string) string {
		return allOf(a+`.manager == `+b+`.manager`, a+`.operation == `+b+`.operation`,
			a+`.?subresource.orValue("") == `+b+`.?subresource.orValue("")`, a+`.?apiVersion.orValue("") == `+b+`.?apiVersion.orValue("")`)
	}
	fieldsOf := func(e string) string { return `dyn(` + e + `.?fieldsV1.orValue({}))` }
	return `request.operation != "UPDATE" || (` +
		entries + `.all(e, e.manager == ` + own + ` || ` + old + `.exists(o, ` +
		allOf(same("e", "o"), fieldSetWithin(fieldsOf("e"), fieldsOf("o"), depth)) + `)) && ` +
		old + `.all(o, o.manager == ` + own + ` || o.operation != "Apply" || ` + entries + `.exists(e, ` + same("e", "o") + `)))`
}

// fieldSetWithin holds when the field set x (a managedFields entry's fieldsV1) lies within the
// field set c. In fieldsV1 a key's value holds its children, "." marks the path itself a member,
// and an empty value is a member without children. A comprehension over a one-element list names
// each level's values, so the expression grows with depth by a constant, not by the path.
func fieldSetWithin(x, c string, depth int) string {
	return `[` + x + `].all(x0, [` + c + `].all(c0, x0 == c0 || x0.all(k0, k0 in c0 && ` + pathWithin(1, depth) + `)))`
}

// pathWithin judges x<level-1>[k<level-1>] within c<level-1>[k<level-1>].
func pathWithin(level, depth int) string {
	up := fmt.Sprint(level - 1)
	x, c := "x"+fmt.Sprint(level), "c"+fmt.Sprint(level)
	bind := `[x` + up + `[k` + up + `]].all(` + x + `, [c` + up + `[k` + up + `]].all(` + c + `, `
	if level >= depth {
		return bind + x + ` == ` + c + `))`
	}
	member := `(size(` + c + `) == 0 || "." in ` + c + `)`
	k := "k" + fmt.Sprint(level)
	return bind + `size(` + x + `) == 0 ? ` + member + ` : (` + x + ` == ` + c + ` || ` + x + `.all(` + k + `, ` + k + ` == "." ? ` + member +
		` : (` + k + ` in ` + c + ` && ` + pathWithin(level+1, depth) + `)))))`
}

// jsonDepth is how deep v nests maps and lists: the deepest path of its managedFields entries.
func jsonDepth(v interface{}) int {
	deepest := 0
	switch v := v.(type) {
	case map[string]interface{}:
		for _, e := range v {
			deepest = max(deepest, jsonDepth(e))
		}
	case []interface{}:
		for _, e := range v {
			deepest = max(deepest, jsonDepth(e))
		}
	default:
		return 0
	}
	return deepest + 1
}
