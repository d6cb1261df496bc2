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

// validateMetricsServer follows kops's validateMetricsServer: an enabled metrics-server in the secure
// mode (insecure unset or false) needs spec.certManager.enabled, for cert-manager issues its serving
// certificate. Whether cert-manager runs is the cluster's business (this build does not deploy it;
// `kops update` says so). The image is checked even when disabled.
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
	if spec.MetricsServerSecure() && !spec.CertManagerEnabled() {
		errs = append(errs, field.Forbidden(path.Child("insecure"),
			"Secure metrics server requires that cert manager is enabled: set spec.certManager.enabled: true (cert-manager must run on the cluster), or set insecure: true"))
	}
	return errs
}
