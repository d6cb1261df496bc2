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

package model

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/upup/pkg/fi"
)

// Builder adds the tasks of one concern; it reads its context and does no I/O.
type Builder interface {
	Build(c *fi.ModelBuilderContext) error
}

// KopsModelContext is what every model builder reads. Builders must not modify it.
type KopsModelContext struct {
	// Cluster is completed (defaults applied) and valid.
	Cluster        *kops.Cluster
	InstanceGroups []*kops.InstanceGroup
	FeatureFlags   featureflag.Set
	Assets         *assets.Remapper
	// ClusterAddons are the addon objects stored with the cluster (feature flag ClusterAddons).
	ClusterAddons []*unstructured.Unstructured
	// Packages are the channel packages chosen for the cluster, by name, read before any builder
	// runs so that builders do no I/O. Only the packages the model needs are present.
	Packages map[string]*channels.Package
	// Nodeup is where machines get nodeup; nil when the command was not told (then no launch
	// template of a group that runs kubelet carries a bootstrap of ours).
	Nodeup NodeupSource
}

// NodeupSource says where the machines download kops's nodeup, by architecture (amd64, arm64):
// mirrors tried in order, and the SHA-256 the binary must have. Bootstrap scripts in launch
// templates are written only with one (pkg/model/nodesetup).
type NodeupSource map[string]NodeupBinary

// NodeupBinary is one architecture's nodeup.
type NodeupBinary struct {
	URLs   []string
	SHA256 string
}
