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

package kopsmodel

import (
	"fmt"
	"strings"

	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

// Builder builds kube2iam, the proxy of podMetadataAccess mode Forward. In any other mode it
// leaves the channel, and channels retires it, deleting exactly what it applied.
type Builder struct{}

func (Builder) Owns() []string { return []string{kube2iam.AddonName} }

// Addons renders kube2iam in mode Forward, nothing otherwise. Unset fields still mean kops's
// defaults, as if CompleteCluster had run.
func (Builder) Addons(ctx *model.KopsModelContext) ([]*addonapi.Addon, error) {
	config, ok, err := kube2IAMConfig(ctx)
	if err != nil || !ok {
		return nil, err
	}
	manifest, err := kube2iam.Render(config)
	if err != nil {
		return nil, err
	}
	return []*addonapi.Addon{addonapi.NewAddon(kube2iam.AddonName, kube2iam.AddonID, manifest)}, nil
}

// Uses says whether the cluster sends pods' metadata requests to kube2iam.
func Uses(cluster *kops.Cluster) bool {
	access := cluster.Spec.PodMetadataAccess
	if access == nil || access.Mode != kops.PodMetadataAccessForward {
		return false
	}
	return access.Forward == nil || access.Forward.Proxy == "" || access.Forward.Proxy == kops.PodMetadataProxyKube2IAM
}

// kube2IAMConfig maps the cluster to kube2iam's settings; ok is false when kube2iam is not used.
// Errors name the cluster spec's field to fix.
func kube2IAMConfig(ctx *model.KopsModelContext) (kube2iam.Config, bool, error) {
	access := ctx.Cluster.Spec.PodMetadataAccess
	if access != nil && access.Mode == kops.PodMetadataAccessForward && !Uses(ctx.Cluster) {
		return kube2iam.Config{}, false, fmt.Errorf("spec.podMetadataAccess.forward.proxy: %q is not a proxy kops deploys (only %q)",
			access.Forward.Proxy, kops.PodMetadataProxyKube2IAM)
	}
	if !Uses(ctx.Cluster) {
		return kube2iam.Config{}, false, nil
	}
	forward := access.Forward
	if forward == nil {
		forward = &kops.PodMetadataForwardSpec{}
	}
	config := kube2iam.Config{
		Port:                  kops.DefaultPodMetadataForwardPort,
		BaseRoleARN:           forward.BaseRoleARN,
		DefaultRole:           forward.DefaultRole,
		NamespaceRestrictions: forward.NamespaceRestrictionsOn(),
	}
	if forward.Port != nil {
		config.Port = *forward.Port
	}
	image, err := ctx.Assets.RemapImage(kube2iam.DefaultImage)
	if err != nil {
		return kube2iam.Config{}, false, fmt.Errorf("kube2iam image: %w", err)
	}
	config.Image = image
	if problems := config.Check(); len(problems) > 0 {
		lines := make([]string, len(problems))
		for i, p := range problems {
			lines[i] = "spec.podMetadataAccess.forward." + p.String()
		}
		return kube2iam.Config{}, false, fmt.Errorf("%s", strings.Join(lines, "\n"))
	}
	return config, true, nil
}

// Packages is empty: kube2iam's image is pinned, not from a channel package.
func (Builder) Packages(*model.KopsModelContext) []string { return nil }
