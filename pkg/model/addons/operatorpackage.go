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

package addons

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/operator/confine"
)

// packageObject is an object an operator package may hold: the Deployment kops takes, or an exact
// copy of one kops renders. Anything else, even a harmless-looking Secret, is refused, so a
// tampered package cannot widen the operator's rights or switch its confinement off.
type packageObject struct{ confine.PackageObject }

func (p packageObject) key() string {
	return p.APIVersion + " " + p.Kind + " " + p.Namespace + "/" + p.Name
}

// check reports every difference from kops's object, or what the allow-list refuses, by field path.
func (p packageObject) check(obj *unstructured.Unstructured) error {
	return p.Problems(obj.Object)
}

// operatorPackageObjects are the objects d's package may hold, the Deployment, which it must hold,
// last.
func operatorPackageObjects(d *confine.Descriptor) ([]packageObject, error) {
	objects, err := d.PackageObjects()
	if err != nil {
		return nil, err
	}
	var out []packageObject
	for _, o := range objects {
		out = append(out, packageObject{o})
	}
	return out, nil
}

func describeObject(obj *unstructured.Unstructured) string {
	name := obj.GetName()
	if ns := obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return obj.GetAPIVersion() + " " + obj.GetKind() + " " + name
}

func expectedPackageObject(allowed []packageObject, obj *unstructured.Unstructured) (packageObject, error) {
	for _, want := range allowed {
		if obj.GetAPIVersion() == want.APIVersion && obj.GetKind() == want.Kind && obj.GetNamespace() == want.Namespace && obj.GetName() == want.Name {
			return want, nil
		}
	}
	var names []string
	for _, want := range allowed {
		name := want.Name
		if want.Namespace != "" {
			name = want.Namespace + "/" + name
		}
		names = append(names, want.APIVersion+" "+want.Kind+" "+name)
	}
	return packageObject{}, fmt.Errorf("object %s is not allowed in an operator package: kops takes only %s from it and generates the rights and admission policy itself",
		describeObject(obj), strings.Join(names, ", "))
}

// checkNoControlMarks refuses kops's control labels and annotations: a package setting
// addon.kops.k8s.io/handover-to would keep the operator running after the flag is turned off.
func checkNoControlMarks(obj *unstructured.Unstructured) error {
	var found []string
	for what, m := range map[string]map[string]string{"metadata.annotations": obj.GetAnnotations(), "metadata.labels": obj.GetLabels()} {
		for k := range m {
			for _, prefix := range channelsapi.ControlKeyPrefixes() {
				if strings.HasPrefix(k, prefix) {
					found = append(found, what+"["+k+"]")
				}
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	sort.Strings(found)
	return fmt.Errorf("%s: not allowed: kops and channels set these", strings.Join(found, ", "))
}
