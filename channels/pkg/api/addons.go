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

const KindAddons = "Addons"

type Addons struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        Metadata   `json:"metadata"`
	Spec            AddonsSpec `json:"spec"`
}

type Metadata struct {
	Name string `json:"name"`
	// CreationTimestamp is accepted because kops writes `creationTimestamp: null`; it is ignored.
	CreationTimestamp *string `json:"creationTimestamp,omitempty"`
}

type AddonsSpec struct {
	Addons []AddonSpec `json:"addons"`
	// TakeOver lists addons outside the channel whose record kops's channels wrote: channels applies
	// their manifest here, records them as its own and retires them, handing objects over where
	// they say so. kops lists CoreDNS's built-in addon here when CoreDNS moves to its operator.
	TakeOver []AddonSpec `json:"takeOver,omitempty"`
}

type AddonSpec struct {
	Name string `json:"name"`
	// ID tells versions of one addon apart (k8s-1.12); with the hash it forms the applied version.
	ID       string            `json:"id,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	// Manifest is the manifest's path relative to the channel file.
	Manifest     string `json:"manifest"`
	ManifestHash string `json:"manifestHash"`
	// Namespace holds the addon's record; empty means kube-system.
	Namespace string `json:"namespace,omitempty"`
	// Prune, when set, deletes objects of the addon that left its manifest.
	Prune *PruneSpec `json:"prune,omitempty"`

	// The fields below are kops's, read so that a channel kops wrote can be read; kops here writes
	// only needsPKI. Version is deprecated.
	Version string `json:"version,omitempty"`
	// KubernetesVersion is a semver range; an addon outside it is not applied.
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	// NeedsRollingUpdate is checked and otherwise ignored: nothing here rolls nodes.
	NeedsRollingUpdate string `json:"needsRollingUpdate,omitempty"`
	// NeedsPKI has channels create, once, the addon's CA (Secret <name>-ca in kube-system) and a
	// cert-manager Issuer <name> signing with it, as kops's channels does; cert-manager must run.
	NeedsPKI bool `json:"needsPKI,omitempty"`
}

type PruneSpec struct {
	Kinds []PruneKindSpec `json:"kinds,omitempty"`
}

type PruneKindSpec struct {
	Group         string   `json:"group,omitempty"`
	Kind          string   `json:"kind"`
	Namespaces    []string `json:"namespaces,omitempty"`
	LabelSelector string   `json:"labelSelector,omitempty"`
}

// ManifestHash is the hex SHA-256 of manifest.
func ManifestHash(manifest []byte) string {
	sum := sha256.Sum256(manifest)
	return hex.EncodeToString(sum[:])
}

func NewAddons(name string) *Addons {
	return &Addons{TypeMeta: metav1.TypeMeta{Kind: KindAddons}, Metadata: Metadata{Name: name}}
}

func (a *Addons) Encode() ([]byte, error) {
	if a.Spec.Addons == nil {
		out := *a
		out.Spec.Addons = []AddonSpec{}
		return yaml.Marshal(&out)
	}
	return yaml.Marshal(a)
}

func ParseAddons(data []byte) (*Addons, error) {
	return ParseAddonsFile("bootstrap channel", data)
}

// ParseAddonsFile decodes and validates a bootstrap channel strictly, returning every problem at
// once as a *FileError; source names it in messages.
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
