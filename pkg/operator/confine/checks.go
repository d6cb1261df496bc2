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
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/kops/pkg/operator"
)

// check is one rule of the admission policy: expression must hold for the operator's creates and
// updates of resource in group (in namespace only, when set).
type check struct {
	group, resource string
	namespace       string
	expression      string
	message         string
}

type variable struct{ name, expression string }

// checks splits the rules between the two policies. Objects no instruction flows into are checked
// by the scope policy, which needs no params, so channels' writes of them (a pre-created
// ServiceAccount) are never refused for want of the instructions.
func (s *Scope) checks() (scope, exact policyRules) {
	d := s.Descriptor
	for _, o := range s.Objects {
		rules := kindOf(o.Kind)
		scope.checks = append(scope.checks, check{rules.Group, rules.Resource, "", `object.metadata.name == ` + celString(o.Name),
			"the " + d.Subject + " operator may only create or change " + o.Kind + " " + o.Name})
	}
	scope.checks = append(scope.checks, s.eventChecks()...)
	// RBAC cannot limit the lease's create by name; the policy binds it to the one the operator
	// renews, in its own namespace.
	scope.checks = append(scope.checks, check{"coordination.k8s.io", "leases", "",
		allOf(`object.metadata.namespace == `+celString(d.Namespace), `object.metadata.name == `+celString(d.LeaseName)),
		"the " + d.Subject + " operator may only create or renew its lease " + d.Namespace + "/" + d.LeaseName})
	depth := map[*policyRules]int{}
	for _, o := range s.Objects {
		c, v := s.objectChecks(o)
		into := &scope
		if o.bindsParams(s.Params) {
			into = &exact
		}
		into.checks = append(into.checks, c...)
		into.vars = append(into.vars, v...)
		depth[into] = max(depth[into], jsonDepth(o.Rendered)+1)
	}
	for _, rules := range []*policyRules{&scope, &exact} {
		if depth[rules] > 0 {
			rules.vars = append(rules.vars, variable{managedFieldsVariable, managedFieldsKept(d.FieldManager(), depth[rules])})
		}
	}
	return scope, exact
}

type policyRules struct {
	checks []check
	vars   []variable
}

func (o *ScopeObject) bindsParams(params []Param) bool {
	for _, l := range o.body {
		for _, p := range params {
			if strings.Contains(l, p.expr()) {
				return true
			}
		}
	}
	return false
}

func (s *Scope) objectChecks(o *ScopeObject) ([]check, []variable) {
	d := s.Descriptor
	rules := kindOf(o.Kind)
	what := "the " + d.Subject + " operator may write " + o.Kind + " " + o.Name + " only as kops renders it: "
	deny := func(expression, message string) check {
		return check{rules.Group, rules.Resource, "", expression, what + message}
	}
	out := []check{
		deny(`dyn(object.metadata).all(k, k in `+celStrings(append(operator.ServerMetadata, "name", "namespace", "labels", "annotations"))+`)`,
			"no ownerReferences, finalizers or other metadata"),
		deny(exactStringMap("labels", o.labels, operator.ChannelsLabels, nil),
			"labels exactly "+celStringMap(o.labels)+", kops's channels' labels left as they are"),
		deny(exactStringMap("annotations", o.annotations, append(append([]string(nil), operator.ChannelsAnnotations...), rules.ControllerAnnotations...), rules.ServerAnnotations),
			"annotations exactly "+celStringMap(o.annotations)+", kops's channels' and controllers' annotations left as they are"),
	}
	keys := []string{"apiVersion", "kind", "metadata"}
	for k := range rules.Ignored {
		keys = append(keys, k)
	}
	var vars []variable
	for _, k := range slices.Sorted(maps.Keys(o.body)) {
		keys = append(keys, k)
		name := strings.ToLower(o.Kind) + "_" + k
		vars = append(vars, variable{name, o.body[k]})
		out = append(out, deny(`has(object.`+k+`) && `+equalMap("object."+k, "variables."+name, o.free[k]), k+" exactly as rendered"+paramsText(s.Params, o.body[k])))
	}
	sort.Strings(keys)
	out = append(out, deny(`dyn(object).all(k, k in `+celStrings(keys)+`)`, "no field beyond "+strings.Join(keys, ", ")))
	if bound := bounds[o.Kind]; bound != nil {
		expression, message := bound(d)
		out = append(out, check{rules.Group, rules.Resource, "", expression, "the " + d.Subject + " " + o.Kind + " " + message})
	}
	if expression, message := o.allocatedCheck(); expression != "" {
		out = append(out, deny(expression, message))
	}
	// Last, so that a write refused for its content says so first.
	out = append(out, deny(`variables.`+managedFieldsVariable,
		"as "+d.FieldManager()+", the entries of other field managers in managedFields only as the server keeps them (none added or grown, no Apply entry dropped)"))
	return out, vars
}

// exactStringMap holds when the metadata map field has exactly want's entries, plus others' keys
// (channels', a controller's) unchanged from the old object (none on create: they are never the
// operator's to set), plus the server's keys, with the server's value on create.
func exactStringMap(field string, want map[string]string, others []string, server map[string]string) string {
	obj := `object.metadata.?` + field + `.orValue({})`
	old := `oldObject.metadata.?` + field + `.orValue({})`
	alternatives := []string{}
	if len(server) > 0 {
		lit := celStringMap(server)
		alternatives = append(alternatives, `(k in `+lit+` && (request.operation == "UPDATE" || `+obj+`[k] == `+lit+`[k]))`)
	}
	keys := celStrings(others)
	alternatives = append(alternatives,
		`(k in `+keys+` && request.operation == "UPDATE" && k in `+old+` && `+obj+`[k] == `+old+`[k])`)
	lit := celStringMap(want)
	alternatives = append(alternatives, `(k in `+lit+` && `+obj+`[k] == `+lit+`[k])`)
	return obj + `.all(k, ` + strings.Join(alternatives, " || ") + `) && ` + lit + `.all(k, k in ` + obj + `) && ` +
		`(request.operation != "UPDATE" || ` + keys + `.all(k, !(k in ` + old + `) || k in ` + obj + `))`
}

func paramsText(params []Param, literal string) string {
	var bound []string
	for _, p := range params {
		// celLiteral writes a bound leaf as dyn(params.<field>): matched whole, one field that is
		// a prefix of another (spec.corefile, spec.corefileChecksum) is not named for the other.
		if strings.Contains(literal, "dyn("+p.expr()+")") {
			bound = append(bound, p.Field)
		}
	}
	if len(bound) == 0 {
		return ""
	}
	return ", with " + strings.Join(bound, " and ") + " of its instructions"
}
