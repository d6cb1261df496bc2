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
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// validateMetricsServer follows kops: an enabled metrics-server must set insecure, and insecure: false
// needs cert-manager, which this build does not deploy. The image is checked even when disabled.
func validateMetricsServer(spec *kops.ClusterSpec, specPath *field.Path) field.ErrorList {
	m, path := spec.MetricsServer, specPath.Child("metricsServer")
	if m == nil {
		return nil
	}
	var errs field.ErrorList
	if m.Image != "" {
		if msg := pinnedImageProblem(m.Image); msg != "" {
			errs = append(errs, field.Invalid(path.Child("image"), m.Image, msg))
		}
	}
	errs = append(errs, validateOperatorMode(m.OperatorMode, path.Child("operatorMode"))...)
	if !spec.MetricsServerEnabled() {
		return errs
	}
	switch {
	case m.Insecure == nil:
		errs = append(errs, field.Required(path.Child("insecure"),
			"set insecure: true: kops's secure metrics-server (insecure unset or false) needs cert-manager, which this build does not deploy"))
	case !*m.Insecure:
		errs = append(errs, field.Invalid(path.Child("insecure"), false,
			"must be true: kops's secure metrics-server needs cert-manager, which this build does not deploy"))
	}
	return errs
}
