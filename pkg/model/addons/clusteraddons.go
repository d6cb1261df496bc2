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

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

const (
	ClusterAddonsName = "cluster-addons.kops.k8s.io"
	ClusterAddonsID   = "default"
)

// ClusterAddons ships the addon objects stored with the cluster (kops create --add, create -f),
// when the ClusterAddons feature flag is on.
type ClusterAddons struct{}

func (ClusterAddons) Owns() []string { return []string{ClusterAddonsName} }

func (ClusterAddons) Packages(*model.KopsModelContext) []string { return nil }

// Addons returns the stored objects, labelled for the addon, in their stored order.
func (ClusterAddons) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if !ctx.FeatureFlags.Enabled(featureflag.ClusterAddons) || len(ctx.ClusterAddons) == 0 {
		return nil, nil
	}
	objs := make([]*unstructured.Unstructured, 0, len(ctx.ClusterAddons))
	for _, o := range ctx.ClusterAddons {
		if kopscodecs.IsComponentConfig(o) {
			continue // configures a component; not an API object
		}
		o = o.DeepCopy()
		// Not required pinned: they are the user's, as in kops.
		if err := finishObject(o, ClusterAddonsName, images{remapper: ctx.Assets}); err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
		objs = append(objs, o)
	}
	if len(objs) == 0 {
		return nil, nil
	}
	manifest, err := encodeObjects(objs)
	if err != nil {
		return nil, err
	}
	return []*Addon{addonapi.NewAddon(ClusterAddonsName, ClusterAddonsID, manifest)}, nil
}
