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
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/blang/semver/v4"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// AddonsAPIVersion is the Addons kind's apiVersion; empty is accepted too, as kops writes none.
const AddonsAPIVersion = "kops.k8s.io/v1alpha1"

var manifestHashPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// Validate returns every problem of the channel at once. It reads no files; see apply.ReadChannel.
func (a *Addons) Validate() field.ErrorList {
	var errs field.ErrorList
	if a.Kind != KindAddons {
		errs = append(errs, field.Invalid(field.NewPath("kind"), a.Kind, "must be "+KindAddons))
	}
	if a.APIVersion != "" && a.APIVersion != AddonsAPIVersion {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), a.APIVersion, "must be "+AddonsAPIVersion+" or left out"))
	}
	byKey := map[string]string{}
	for _, list := range []struct {
		name   string
		addons []AddonSpec
	}{{"addons", a.Spec.Addons}, {"takeOver", a.Spec.TakeOver}} {
		for i, addon := range list.addons {
			p := field.NewPath("spec", list.name).Index(i)
			errs = append(errs, validateAddon(p, addon)...)
			if addon.Name == "" {
				continue
			}
			// Records are looked up by name in any namespace, so a name may appear once in either
			// list. Case matters, as in kops.
			key := RecordKeyPrefix + addon.Name
			if first, dup := byKey[key]; dup {
				errs = append(errs, field.Duplicate(p.Child("name"), fmt.Sprintf("%s (also %s)", addon.Name, first)))
				continue
			}
			byKey[key] = p.String()
		}
	}
	return errs
}

func validateAddon(p *field.Path, a AddonSpec) field.ErrorList {
	var errs field.ErrorList
	if a.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), "an addon needs a name; its record is the annotation "+RecordKeyPrefix+"<name>"))
	} else if msgs := validation.IsQualifiedName(RecordKeyPrefix + a.Name); len(msgs) > 0 || strings.Contains(a.Name, "/") {
		if len(msgs) == 0 {
			msgs = []string{"must not contain '/'"}
		}
		errs = append(errs, field.Invalid(p.Child("name"), a.Name, "becomes the annotation key "+RecordKeyPrefix+"<name>: "+strings.Join(msgs, "; ")))
	}
	if a.ID != "" {
		for _, msg := range validation.IsValidLabelValue(a.ID) {
			errs = append(errs, field.Invalid(p.Child("id"), a.ID, msg))
		}
	}
	errs = append(errs, validateManifestPath(p.Child("manifest"), a.Manifest)...)
	switch {
	case a.ManifestHash == "":
		errs = append(errs, field.Required(p.Child("manifestHash"), "the hex SHA-256 of the manifest: with the id it is the addon's version"))
	case !manifestHashPattern().MatchString(a.ManifestHash):
		errs = append(errs, field.Invalid(p.Child("manifestHash"), a.ManifestHash, "must be a hex SHA-256 (64 lower-case hex digits)"))
	}
	errs = append(errs, metav1validation.ValidateLabels(a.Selector, p.Child("selector"))...)
	if a.Namespace != "" {
		for _, msg := range validation.IsDNS1123Label(a.Namespace) {
			errs = append(errs, field.Invalid(p.Child("namespace"), a.Namespace, msg))
		}
	}
	if a.KubernetesVersion != "" {
		if _, err := semver.ParseRange(a.KubernetesVersion); err != nil {
			errs = append(errs, field.Invalid(p.Child("kubernetesVersion"), a.KubernetesVersion, "must be a semver range such as \">=1.30.0\": "+err.Error()))
		}
	}
	switch a.NeedsRollingUpdate {
	case "", "control-plane", "workers", "all":
	default:
		errs = append(errs, field.NotSupported(p.Child("needsRollingUpdate"), a.NeedsRollingUpdate, []string{"control-plane", "workers", "all"}))
	}
	if a.Prune != nil {
		for i, k := range a.Prune.Kinds {
			kp := p.Child("prune", "kinds").Index(i)
			if k.Kind == "" {
				errs = append(errs, field.Required(kp.Child("kind"), ""))
			}
			for j, ns := range k.Namespaces {
				for _, msg := range validation.IsDNS1123Label(ns) {
					errs = append(errs, field.Invalid(kp.Child("namespaces").Index(j), ns, msg))
				}
			}
			if k.LabelSelector != "" {
				if _, err := labels.Parse(k.LabelSelector); err != nil {
					errs = append(errs, field.Invalid(kp.Child("labelSelector"), k.LabelSelector, err.Error()))
				}
			}
		}
	}
	return errs
}

func validateManifestPath(p *field.Path, manifest string) field.ErrorList {
	switch {
	case manifest == "":
		return field.ErrorList{field.Required(p, "the manifest's path relative to the channel file")}
	case strings.HasPrefix(manifest, "/") || strings.Contains(manifest, "\\") || strings.Contains(manifest, "://"):
		return field.ErrorList{field.Invalid(p, manifest, "must be a path relative to the channel file")}
	case path.Clean(manifest) != manifest || manifest == "." || strings.HasPrefix(manifest, "../") || manifest == "..":
		return field.ErrorList{field.Invalid(p, manifest, "must be a clean relative path inside the channel's folder (no ., .. or //)")}
	case strings.ContainsAny(manifest, "\x00\n\r"):
		return field.ErrorList{field.Invalid(p, manifest, "must not contain control characters")}
	}
	return nil
}
