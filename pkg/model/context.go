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

// KopsModelContext is read-only to builders.
type KopsModelContext struct {
	// Cluster is completed and valid.
	Cluster        *kops.Cluster
	InstanceGroups []*kops.InstanceGroup
	FeatureFlags   featureflag.Set
	Assets         *assets.Remapper
	ClusterAddons  []*unstructured.Unstructured
	// Packages are read before any builder runs, so builders do no I/O.
	Packages map[string]*channels.Package
	// Nodeup is nil when the command was not told; then no kubelet group's template carries our bootstrap.
	Nodeup NodeupSource
}

// NodeupSource is, per architecture, nodeup's mirrors in order and its SHA-256.
type NodeupSource map[string]NodeupBinary

type NodeupBinary struct {
	URLs   []string
	SHA256 string
}
