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
	"bytes"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator/confine"
)

// operatorPackageManifest is kops's objects for d (Namespace, CRD, ServiceAccount, rights and
// policy) and the operator Deployment taken from package p, finished and checked to run as the
// identity the rights are granted to. The package may hold only that Deployment and exact copies
// of kops's objects (operatorPackageObjects); every problem is reported at once.
func operatorPackageManifest(d *confine.Descriptor, p *channels.Package, remapper *assets.Remapper, policy []byte, kopsArgs []string) ([]byte, error) {
	where := fmt.Sprintf("channel %q, package %s version %s", p.Channel, p.Name, p.Version)
	docs, err := kubemanifest.Split(p.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	rbac, err := d.RBACManifest()
	if err != nil {
		return nil, err
	}
	allowed, err := operatorPackageObjects(d)
	if err != nil {
		return nil, err
	}
	var problems []string
	var deployment *unstructured.Unstructured
	seen := map[string]bool{}
	for _, doc := range docs {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		want, err := expectedPackageObject(allowed, obj)
		switch {
		case err != nil:
			problems = append(problems, err.Error())
			continue
		case seen[want.key()]:
			problems = append(problems, fmt.Sprintf("object %s appears more than once", describeObject(obj)))
			continue
		}
		seen[want.key()] = true
		if want.Rendered != nil {
			// A copy of kops's object: checked whole, then dropped for kops's own.
			if err := want.check(obj); err != nil {
				problems = append(problems, fmt.Sprintf("object %s: %v", describeObject(obj), err))
			}
			continue
		}
		if err := finishOperatorDeployment(d, p, remapper, want, obj, kopsArgs); err != nil {
			problems = append(problems, fmt.Sprintf("object %s: %v", describeObject(obj), err))
			continue
		}
		deployment = obj
	}
	if !seen[allowed[len(allowed)-1].key()] {
		problems = append(problems, fmt.Sprintf("no Deployment %s/%s", d.Namespace, d.DeploymentName))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s is refused:\n  %s", where, strings.Join(problems, "\n  "))
	}
	var out bytes.Buffer
	for _, want := range allowed {
		if want.Rendered == nil {
			continue
		}
		obj := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(want.Rendered)}
		if err := finishObject(obj, d.AddonName, images{remapper: remapper, pinned: true}); err != nil {
			return nil, fmt.Errorf("object %s: %w", describeObject(obj), err)
		}
		if err := writeObject(&out, obj); err != nil {
			return nil, err
		}
	}
	writeDoc(&out, rbac)
	writeDoc(&out, policy)
	if deployment != nil {
		if err := writeObject(&out, deployment); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// finishOperatorDeployment checks the package's Deployment and finishes it in place: labels,
// pinned and remapped images (the channel's image first), and kopsArgs.
func finishOperatorDeployment(d *confine.Descriptor, p *channels.Package, remapper *assets.Remapper, want packageObject, obj *unstructured.Unstructured, kopsArgs []string) error {
	if err := checkNoControlMarks(obj); err != nil {
		return err
	}
	if err := want.check(obj); err != nil {
		return err
	}
	if err := finishObject(obj, d.AddonName, images{remapper: remapper, pinned: true, override: p.Image}); err != nil {
		return err
	}
	return setKopsArgs(obj, kopsArgs)
}

func writeObject(out *bytes.Buffer, obj *unstructured.Unstructured) error {
	data, err := yaml.Marshal(obj.Object)
	if err != nil {
		return err
	}
	writeDoc(out, data)
	return nil
}
