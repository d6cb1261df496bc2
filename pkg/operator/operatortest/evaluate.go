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

package operatortest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/cel-go/cel"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// Request is one admission request as a ValidatingAdmissionPolicy sees it.
type Request struct {
	Operation, Group, Resource, Namespace, Username string
	// SubResource is "" for the resource itself, or e.g. "scale".
	SubResource       string
	Object, OldObject map[string]interface{}
	Params            map[string]interface{}
}

// Policies are compiled ValidatingAdmissionPolicies.
type Policies struct {
	policies []compiledPolicy
}

type compiledPolicy struct {
	variables   []compiled // in order: a variable may name the ones before it
	validations []compiled
}

type compiled struct {
	name, message string
	program       cel.Program
}

// Compile skips objects that are not ValidatingAdmissionPolicies.
func Compile(objects []runtime.Object) (*Policies, error) {
	env, err := cel.NewEnv(cel.OptionalTypes(),
		cel.Variable("object", cel.DynType), cel.Variable("oldObject", cel.DynType), cel.Variable("request", cel.DynType),
		cel.Variable("params", cel.DynType), cel.Variable("variables", cel.MapType(cel.StringType, cel.DynType)))
	if err != nil {
		return nil, err
	}
	compile := func(expression string) (cel.Program, error) {
		ast, issues := env.Compile(expression)
		if issues.Err() != nil {
			return nil, fmt.Errorf("compiling %s: %w", expression, issues.Err())
		}
		return env.Program(ast)
	}
	out := &Policies{}
	for _, o := range objects {
		policy, ok := o.(*admissionregistrationv1.ValidatingAdmissionPolicy)
		if !ok {
			continue
		}
		var c compiledPolicy
		for _, v := range policy.Spec.Variables {
			p, err := compile(v.Expression)
			if err != nil {
				return nil, fmt.Errorf("policy %s, variable %s: %w", policy.Name, v.Name, err)
			}
			c.variables = append(c.variables, compiled{name: v.Name, program: p})
		}
		for _, v := range policy.Spec.Validations {
			p, err := compile(v.Expression)
			if err != nil {
				return nil, fmt.Errorf("policy %s: %w", policy.Name, err)
			}
			c.validations = append(c.validations, compiled{message: v.Message, program: p})
		}
		out.policies = append(out.policies, c)
	}
	return out, nil
}

// Denials returns the messages of the validations that refuse r; one that fails to evaluate
// refuses (failurePolicy Fail). Match rules are not evaluated.
func (p *Policies) Denials(r Request) ([]string, error) {
	var oldObject interface{}
	if r.OldObject != nil {
		oldObject = r.OldObject
	}
	vars := map[string]interface{}{
		"object": r.Object, "oldObject": oldObject, "params": r.Params,
		"request": map[string]interface{}{
			"operation": r.Operation, "namespace": r.Namespace, "subResource": r.SubResource,
			"resource": map[string]interface{}{"group": r.Group, "resource": r.Resource},
			"userInfo": map[string]interface{}{"username": r.Username},
		},
	}
	var denied []string
	for _, policy := range p.policies {
		variables := map[string]interface{}{}
		vars["variables"] = variables
		for _, v := range policy.variables {
			out, _, err := v.program.Eval(vars)
			if err != nil {
				return nil, fmt.Errorf("variable %s: %w", v.name, err)
			}
			variables[v.name] = out.Value()
		}
		for _, v := range policy.validations {
			if out, _, err := v.program.Eval(vars); err != nil || out.Value() != true {
				denied = append(denied, v.message)
			}
		}
	}
	return denied, nil
}

// CELObject decodes a YAML or JSON document with whole numbers as int64, as CEL sees it.
func CELObject(doc []byte) (map[string]interface{}, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var out map[string]interface{}
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return wholeNumbers(out).(map[string]interface{}), nil
}

func wholeNumbers(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = wholeNumbers(e)
		}
	case []interface{}:
		for i, e := range x {
			x[i] = wholeNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
