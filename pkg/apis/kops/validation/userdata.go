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
	"slices"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// userDataTypes are the part types kops accepts: those cloud-init reads from a MIME multipart document.
var userDataTypes = []string{
	"text/x-include-once-url",
	"text/x-include-url",
	"text/cloud-config-archive",
	"text/upstart-job",
	"text/cloud-config",
	"text/part-handler",
	"text/x-shellscript",
	"text/cloud-boothook",
}

// validateAdditionalUserData adds to kops's rules what the MIME document needs: names are printable,
// free of quotes and backslashes, and unique (cloud-init writes each part to a file of that name).
func validateAdditionalUserData(parts []kops.UserData, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, part := range parts {
		p := path.Index(i)
		namePath := p.Child("name")
		switch {
		case part.Name == "":
			errs = append(errs, field.Required(namePath, "the part's file name, e.g. bootstrap.sh"))
		case strings.ContainsAny(part.Name, `"\/`) || strings.IndexFunc(part.Name, notPrintable) >= 0:
			errs = append(errs, field.Invalid(namePath, part.Name, `must be printable and hold no '"', '\' or '/': it is the part's file name`))
		case seen[part.Name]:
			errs = append(errs, field.Duplicate(namePath, part.Name))
		}
		seen[part.Name] = true
		if part.Content == "" {
			errs = append(errs, field.Required(p.Child("content"), ""))
		}
		if !slices.Contains(userDataTypes, part.Type) {
			errs = append(errs, field.NotSupported(p.Child("type"), part.Type, userDataTypes))
		}
	}
	return errs
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) }
