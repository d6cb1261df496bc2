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

package apply

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
)

// madeByOthers is the addon with only the objects of its manifest that exist on the cluster
// carrying the other tool's label for it (api.LabelAddonName or kops's k8s-addon); foreign names those
// that exist without it.
func (a *Applier) madeByOthers(ctx context.Context, addon *Addon) (made *Addon, foreign []string, err error) {
	made = &Addon{Spec: addon.Spec}
	for _, obj := range addon.Objects {
		gvk := obj.GroupVersionKind()
		if _, err := a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version); meta.IsNoMatchError(err) {
			continue // a kind the server does not serve has no objects to take over
		}
		client, err := a.resourceFor(ctx, obj)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", obj.GetKind(), objectName(obj), err)
		}
		live, err := client.Get(ctx, obj.GetName(), metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, nil, fmt.Errorf("reading %s %s: %w", obj.GetKind(), objectName(obj), err)
		case labelledFor(live, addon.Spec.Name):
			made.Objects = append(made.Objects, obj)
		default:
			foreign = append(foreign, obj.GetKind()+" "+objectName(obj))
		}
	}
	return made, foreign, nil
}

func labelledFor(o *unstructured.Unstructured, addon string) bool {
	l := o.GetLabels()
	return l[api.LabelAddonName] == addon || l[api.LabelKopsAddon] == addon
}

// takeoverNote names, for an addon of the channel whose record another tool wrote, the objects of
// its manifest that exist: those carrying the other tool's label for the addon are replaced in
// place by ours (same name; our fields, such as narrower rules, win), those without it are taken
// too, since the manifest names them. The report says so before and after the apply.
func (a *Applier) takeoverNote(ctx context.Context, addon *Addon) (string, error) {
	made, foreign, err := a.madeByOthers(ctx, addon)
	if err != nil {
		return "", err
	}
	var parts []string
	if len(made.Objects) > 0 {
		names := make([]string, 0, len(made.Objects))
		for _, o := range made.Objects {
			names = append(names, o.GetKind()+" "+objectName(o))
		}
		parts = append(parts, "replacing in place what it made: "+strings.Join(names, ", "))
	}
	if len(foreign) > 0 {
		parts = append(parts, "also taking, without its label: "+strings.Join(foreign, ", "))
	}
	if len(parts) == 0 {
		return "", nil
	}
	return "; " + strings.Join(parts, "; "), nil
}
