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

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// EnforcementProbe is the JSON value of EnforcementProbeAnnotation.
type EnforcementProbe struct {
	// User is the identity the policy confines; the policy must match it by user name, because
	// channels adds system:masters so that RBAC lets the request, of an identity holding no rights
	// yet, through to admission.
	User string `json:"user"`
	// Object is a namespaced object the policy must deny when User creates it.
	Object map[string]interface{} `json:"object"`
}

func (p *EnforcementProbe) Encode() (string, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// ParseEnforcementProbe refuses unknown fields and trailing data.
func ParseEnforcementProbe(value string) (*EnforcementProbe, error) {
	dec := json.NewDecoder(strings.NewReader(value))
	dec.DisallowUnknownFields()
	p := &EnforcementProbe{}
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("annotation %s: %w", EnforcementProbeAnnotation, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("annotation %s: the value must be one JSON object, with nothing after it", EnforcementProbeAnnotation)
	}
	var problems []string
	if p.User == "" {
		problems = append(problems, "user is required")
	}
	meta, _ := p.Object["metadata"].(map[string]interface{})
	for _, field := range []string{"apiVersion", "kind"} {
		if s, _ := p.Object[field].(string); s == "" {
			problems = append(problems, "object."+field+" is required")
		}
	}
	for _, field := range []string{"name", "namespace"} {
		if s, _ := meta[field].(string); s == "" {
			problems = append(problems, "object.metadata."+field+" is required")
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("annotation %s: %w", EnforcementProbeAnnotation, errors.New(strings.Join(problems, "; ")))
	}
	return p, nil
}
