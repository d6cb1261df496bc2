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
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

// BuiltInBuilder builds the built-in addon of an operator that has one.
type BuiltInBuilder struct{ *Operator }

func (b BuiltInBuilder) Owns() []string { return []string{b.BuiltIn.Name} }

// Packages are the addon's packages when the built-in addon renders the custom resource (with the
// operator flags); otherwise it renders a pinned image and reads none.
func (b BuiltInBuilder) Packages(ctx *model.KopsModelContext) []string {
	if b.ActiveMode(ctx) == "" {
		return nil
	}
	return b.Operator.Packages
}

// Addons renders the built-in addon when the cluster asks for the addon, under takeOver while the
// operator runs.
func (b BuiltInBuilder) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if b.Mode(&ctx.Cluster.Spec) == "" {
		return nil, nil
	}
	manifest, err := b.BuiltIn.Render(ctx, b.ActiveMode(ctx) != "")
	if err != nil {
		return nil, err
	}
	addon := addonapi.NewAddon(b.BuiltIn.Name, b.BuiltIn.ID, manifest)
	if b.BuiltIn.Selector != nil {
		addon.Spec.Selector = b.BuiltIn.Selector
	}
	if b.BuiltIn.NeedsPKI != nil {
		addon.Spec.NeedsPKI = b.BuiltIn.NeedsPKI(&ctx.Cluster.Spec)
	}
	addon.TakeOver = b.UsesOperator(ctx)
	return []*Addon{addon}, nil
}
