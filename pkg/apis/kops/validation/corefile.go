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

package validation

import (
	"errors"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	// The Corefile is checked as kops renders it, so what is checked is what CoreDNS runs.
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/coredns/corefile"
	"k8s.io/kops/pkg/apis/kops"
)

// validateCorefile refuses Corefile lines that could read the pod's files or environment or leak its
// token or the node's cloud identity (docs/coredns-object.md#what-a-corefile-may-reach), reporting on
// the field that wrote the line. The rendered Corefile is skipped when renderedFieldsValid is false.
func validateCorefile(d *kops.KubeDNSConfig, path *field.Path, renderedFieldsValid bool) field.ErrorList {
	external := d.ExternalCoreFile != ""
	if !external && !renderedFieldsValid {
		return nil
	}
	text, sources := coredns.CorefileSources(d)
	problems, err := corefile.Check(text)

	prefix := "in the Corefile, "
	if !external {
		prefix = "in the Corefile kops renders, "
	}
	pathOf := func(line int) *field.Path {
		if line < 1 || line > len(sources) {
			return path
		}
		switch s := sources[line-1]; {
		case s.Field == "":
			return path
		case s.Key != "":
			return path.Child(s.Field).Key(s.Key)
		default:
			return path.Child(s.Field)
		}
	}

	var errs field.ErrorList
	for _, p := range problems {
		errs = append(errs, field.Forbidden(pathOf(p.Line), prefix+p.String()))
	}
	if err != nil {
		line := 0
		if se := (*corefile.SyntaxError)(nil); errors.As(err, &se) {
			line = se.Line
		}
		errs = append(errs, field.Invalid(pathOf(line), lineOf(text, line), prefix+err.Error()))
	}
	return errs
}

func lineOf(text string, n int) string {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}
