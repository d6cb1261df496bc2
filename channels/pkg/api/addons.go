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
	"crypto/sha256"
	"encoding/hex"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// KindAddons is the kind of a bootstrap channel.
const KindAddons = "Addons"

// Addons is a list of addons to apply to a cluster, in order.
type Addons struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        Metadata   `json:"metadata"`
	Spec            AddonsSpec `json:"spec"`
}

// Metadata names a channel, of either kind.
type Metadata struct {
	Name string `json:"name"`
	// CreationTimestamp is read so that a channel kops wrote (which carries
	// `creationTimestamp: null`, from kops's ObjectMeta) can be read; it means nothing here.
	CreationTimestamp *string `json:"creationTimestamp,omitempty"`
}

// AddonsSpec is the ordered list of addons.
type AddonsSpec struct {
	Addons []AddonSpec `json:"addons"`
	// TakeOver lists addons that are not part of the channel but whose objects it may find
	// recorded by another tool (kops's channels) under the same name: channels then applies the
	// manifest given here over them, records them as its own, and retires them like any addon that
	// left the channel, handing objects over where they say so. An addon whose record is its own,
	// or that has none, is not touched. kops writes CoreDNS's built-in addon here when CoreDNS runs
	// through its operator, so that a kops cluster switches to the operator like one of ours.
	TakeOver []AddonSpec `json:"takeOver,omitempty"`
}

// AddonSpec is one addon: a manifest, where it lies relative to the channel, and the hash that
// tells channels whether it changed since it was last applied.
type AddonSpec struct {
	Name string `json:"name"`
	// ID tells versions of one addon apart (k8s-1.12); with the hash it forms the applied version.
	ID string `json:"id,omitempty"`
	// Selector is the labels every object of the addon carries.
	Selector map[string]string `json:"selector,omitempty"`
	// Manifest is the manifest's path relative to the channel file.
	Manifest string `json:"manifest"`
	// ManifestHash is the hex SHA-256 of the manifest's exact bytes.
	ManifestHash string `json:"manifestHash"`
	// Namespace holds the record of what was applied (kube-system when empty).
	Namespace string `json:"namespace,omitempty"`
	// Prune, when set, deletes objects of the addon that left its manifest.
	Prune *PruneSpec `json:"prune,omitempty"`

	// The fields below are kops's. They are read, and checked for shape, so that a bootstrap
	// channel kops wrote can be read; `kops update cluster` here writes none of them.
	// Version is kops's deprecated addon version (ID and ManifestHash identify a version).
	Version string `json:"version,omitempty"`
	// KubernetesVersion is a semver range; an addon whose range does not admit the cluster's
	// version is not applied (see apply).
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	// NeedsRollingUpdate (control-plane, workers or all) tells kops's channels to mark nodes for a
	// rolling update after applying; nothing here rolls nodes: it is checked and otherwise ignored.
	NeedsRollingUpdate string `json:"needsRollingUpdate,omitempty"`
	// NeedsPKI tells kops's channels to create the addon's CA first; not supported here, and an
	// addon that sets it is refused at apply time rather than applied without its PKI.
	NeedsPKI bool `json:"needsPKI,omitempty"`
}

// PruneSpec lists the kinds whose stale objects are deleted.
type PruneSpec struct {
	Kinds []PruneKindSpec `json:"kinds,omitempty"`
}

// PruneKindSpec is one kind to prune, optionally limited to namespaces and a label selector.
type PruneKindSpec struct {
	Group         string   `json:"group,omitempty"`
	Kind          string   `json:"kind"`
	Namespaces    []string `json:"namespaces,omitempty"`
	LabelSelector string   `json:"labelSelector,omitempty"`
}

// ManifestHash is the hash recorded for a manifest's bytes.
func ManifestHash(manifest []byte) string {
	sum := sha256.Sum256(manifest)
	return hex.EncodeToString(sum[:])
}

// NewAddons returns an empty channel with the given name.
func NewAddons(name string) *Addons {
	return &Addons{TypeMeta: metav1.TypeMeta{Kind: KindAddons}, Metadata: Metadata{Name: name}}
}

// Encode renders the channel as YAML (sorted keys, trailing newline).
func (a *Addons) Encode() ([]byte, error) {
	if a.Spec.Addons == nil {
		out := *a
		out.Spec.Addons = []AddonSpec{}
		return yaml.Marshal(&out)
	}
	return yaml.Marshal(a)
}

// ParseAddons reads a bootstrap channel and validates it; see ParseAddonsFile.
func ParseAddons(data []byte) (*Addons, error) {
	return ParseAddonsFile("bootstrap channel", data)
}

// ParseAddonsFile reads a bootstrap channel named source (used in messages), rejecting unknown
// fields and values of the wrong type, and validates every addon. All problems are reported at
// once, each with its line and field path (*FileError).
func ParseAddonsFile(source string, data []byte) (*Addons, error) {
	a := &Addons{}
	lines, problems := decodeStrict(data, a)
	if len(problems) == 0 {
		for _, fe := range a.Validate() {
			problems = append(problems, Problem{Line: lines.Of(fe.Field, 0), Err: fe})
		}
	}
	if len(problems) > 0 {
		return nil, &FileError{Source: source, Problems: problems}
	}
	return a, nil
}
