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
	"strings"

	"k8s.io/kops/pkg/operator"
)

// eventChecks keep the operator from speaking for others: in the watch namespace its events must
// name itself as reporter and one of its own objects as subject; only reason, message, type,
// counts and times are free. Its own namespace holds nothing but its lease, so events there are
// not checked.
func (s *Scope) eventChecks() []check {
	d := s.Descriptor
	refs := []string{celStrings([]string{d.CRD.APIVersion(), d.CRD.Kind, d.Instructions})}
	for _, o := range s.Objects {
		apiVersion, _ := o.Rendered["apiVersion"].(string)
		refs = append(refs, celStrings([]string{apiVersion, o.Kind, o.Name}))
	}
	about := "[" + strings.Join(refs, ", ") + "]"
	me := celString(d.EventReporter())
	source := `{"component": ` + me + `, "host": ` + me + `}`
	ref := func(obj string) string {
		return allOf(`dyn(`+obj+`).all(k, k in ["apiVersion", "kind", "name", "namespace", "uid", "resourceVersion"])`,
			`[`+obj+`.?apiVersion.orValue(""), `+obj+`.?kind.orValue(""), `+obj+`.?name.orValue("")] in `+about,
			obj+`.?namespace.orValue("") == `+celString(d.WatchNamespace))
	}
	metadata := `dyn(object.metadata).all(k, k in ` + celStrings(append(operator.ServerMetadata, "name", "namespace")) + `)`
	whose := "the " + d.Subject + " operator may only record events in " + d.WatchNamespace + " as " + d.EventReporter() +
		" about the objects it manages, with nothing but a reason, a message, a type, counts and times of its own, and change only events it recorded"
	// An update is judged on the old object too: the new one alone would let the operator rewrite
	// another component's event (a kubelet's Warning) into one of its own, erasing it.
	ownOld := func(field string) string {
		return `(request.operation != "UPDATE" || oldObject.?` + field + `.orValue("") == ` + me + `)`
	}
	return []check{
		{"", "events", d.WatchNamespace, allOf(metadata,
			`dyn(object).all(k, k in ["apiVersion", "kind", "metadata", "involvedObject", "reason", "message", "type", "count", "firstTimestamp", "lastTimestamp", "eventTime", "source", "reportingComponent", "reportingInstance"])`,
			ref("object.involvedObject"),
			`object.?type.orValue("") in ["Normal", "Warning"]`,
			`dyn(object.?source.orValue({})) == `+source,
			`object.?reportingComponent.orValue("") == `+me,
			`object.?reportingInstance.orValue("") == `+me,
			ownOld("reportingComponent")), whose},
		{"events.k8s.io", "events", d.WatchNamespace, allOf(metadata,
			`dyn(object).all(k, k in ["apiVersion", "kind", "metadata", "regarding", "reason", "note", "type", "action", "eventTime", "series", "reportingController", "reportingInstance", "deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount"])`,
			ref("object.regarding"),
			`object.?type.orValue("") in ["Normal", "Warning"]`,
			// The API server shows an event without a source with an empty one.
			`dyn(object.?deprecatedSource.orValue({})).all(k, k in ["component", "host"])`,
			`object.?deprecatedSource.?component.orValue(`+me+`) == `+me,
			`object.?deprecatedSource.?host.orValue(`+me+`) == `+me,
			`object.?reportingController.orValue("") == `+me,
			`object.?reportingInstance.orValue("") == `+me,
			ownOld("reportingController")), whose},
	}
}
