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
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

var SupportedCloudProviders = []string{"aws", "gce", "azure", "digitalocean", "hetzner", "openstack", "scaleway"}

var semverRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
		`(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?` +
		`(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$`)
})

// ValidateCluster returns every problem with c, which should be completed by kops.CompleteCluster.
func ValidateCluster(c *kops.Cluster) field.ErrorList {
	var errs field.ErrorList
	spec, specPath := &c.Spec, field.NewPath("spec")

	errs = append(errs, validateClusterName(c.Name, field.NewPath("metadata", "name"))...)

	versionPath := specPath.Child("kubernetesVersion")
	switch {
	case spec.KubernetesVersion == "":
		errs = append(errs, field.Required(versionPath, "e.g. 1.34.2"))
	case !semverRE().MatchString(spec.KubernetesVersion):
		errs = append(errs, field.Invalid(versionPath, spec.KubernetesVersion,
			"must be a semantic version such as 1.34.2 or v1.34.2"))
	}

	cloudPath := specPath.Child("cloudProvider")
	switch {
	case spec.CloudProvider == "":
		errs = append(errs, field.Required(cloudPath, "one of "+strings.Join(SupportedCloudProviders, ", ")))
	case !slices.Contains(SupportedCloudProviders, spec.CloudProvider):
		errs = append(errs, field.NotSupported(cloudPath, spec.CloudProvider, SupportedCloudProviders))
	}

	errs = append(errs, validateNetwork(spec, specPath)...)
	errs = append(errs, validateKubeDNS(spec, specPath)...)
	errs = append(errs, validatePodMetadataAccess(spec, specPath)...)
	errs = append(errs, validatePodMetadataWithIRSA(c)...)
	errs = append(errs, validateMetricsServer(spec, specPath)...)
	errs = append(errs, validateAssets(spec.Assets, specPath.Child("assets"))...)
	for i, a := range spec.Addons {
		if a.Manifest == "" {
			errs = append(errs, field.Required(specPath.Child("addons").Index(i).Child("manifest"), ""))
		}
	}
	if a := spec.Authorization; a != nil && a.RBAC != nil && a.AlwaysAllow != nil {
		errs = append(errs, field.Forbidden(specPath.Child("authorization"),
			"only one of rbac and alwaysAllow may be set"))
	}
	return errs
}

// validateClusterName requires a fully qualified DNS name: kops derives DNS records and the state
// store path from it.
func validateClusterName(name string, path *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(path, "e.g. mycluster.example.com, or mycluster.k8s.local for a cluster without DNS")}
	}
	var errs field.ErrorList
	for _, msg := range DNSNameProblems(name) {
		errs = append(errs, field.Invalid(path, name, msg))
	}
	if !strings.Contains(name, ".") {
		errs = append(errs, field.Invalid(path, name,
			"must be a fully qualified DNS name, e.g. mycluster.example.com, or mycluster.k8s.local for a cluster without DNS"))
	}
	return errs
}

// validateAssets: a registry copy and a pull-through proxy are exclusive in kops.
func validateAssets(a *kops.AssetsSpec, path *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	for _, f := range []struct{ name, value string }{
		{"containerRegistry", a.ContainerRegistry},
		{"containerProxy", a.ContainerProxy},
	} {
		if f.value == "" {
			continue
		}
		if msg := registryProblem(f.value); msg != "" {
			errs = append(errs, field.Invalid(path.Child(f.name), f.value, msg+"; use host[:port][/path]"))
		}
	}
	if a.ContainerRegistry != "" && a.ContainerProxy != "" {
		errs = append(errs, field.Forbidden(path.Child("containerProxy"),
			fmt.Sprintf("may not be set together with %s", path.Child("containerRegistry"))))
	}
	return errs
}
