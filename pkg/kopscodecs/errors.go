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

package kopscodecs

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/util/pkg/yamlshape"
)

type docRef struct {
	source string
	index  int
	line   int
	kind   string
	name   string
}

func (d docRef) String() string {
	s := fmt.Sprintf("document %d", d.index)
	switch {
	case d.kind != "" && d.name != "":
		s += fmt.Sprintf(" (%s %q)", d.kind, d.name)
	case d.kind != "":
		s += fmt.Sprintf(" (%s)", d.kind)
	}
	return s
}

type Problem struct {
	Document string
	Line     int
	Err      error
}

// DecodeError lists every problem in a stream: `cluster.yaml:12: document 1 (Cluster "c"): spec.x: ...`.
type DecodeError struct {
	Source   string
	Problems []Problem
}

func (e *DecodeError) Error() string {
	lines := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		where := e.Source
		if p.Line > 0 {
			where = fmt.Sprintf("%s:%d", e.Source, p.Line)
		}
		lines = append(lines, fmt.Sprintf("%s: %s: %v", where, p.Document, p.Err))
	}
	return strings.Join(lines, "\n")
}

func (e *DecodeError) add(doc docRef, line int, err error) {
	e.Problems = append(e.Problems, Problem{Document: doc.String(), Line: line, Err: err})
}

func (e *DecodeError) addFieldErrors(doc docRef, errs field.ErrorList, lines map[string]int) {
	for _, fe := range errs {
		e.add(doc, yamlshape.Lines(lines).Of(fe.Field, doc.line), fe)
	}
}

// WithoutLines drops the line numbers of a decoding error, for a document no user wrote (one made by --set).
func WithoutLines(err error) error {
	var d *DecodeError
	if !errors.As(err, &d) {
		return err
	}
	out := &DecodeError{Source: d.Source, Problems: make([]Problem, len(d.Problems))}
	for i, p := range d.Problems {
		p.Line = 0
		out.Problems[i] = p
	}
	return out
}
