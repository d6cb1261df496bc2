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

	"go.yaml.in/yaml/v3"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
	"k8s.io/kops/pkg/templates"
	"k8s.io/kops/upup/models"
)

// The addon that locks the default ServiceAccounts of kube-system and of the default namespace.
const (
	ServiceAccountDefaultsAddonName = "serviceaccount-defaults.addons.k8s.io"
	ServiceAccountDefaultsAddonID   = "v1"
	serviceAccountDefaultsTemplate  = "cloudup/resources/addons/serviceaccount-defaults.addons.k8s.io/v1.yaml.template"
)

type defaultAccount struct {
	Namespace string
	// Lock sets automountServiceAccountToken: false; without it the field is released.
	Lock bool
}

// ServiceAccountDefaults locks kube-system's default ServiceAccount (and the default namespace's
// when spec.serviceAccountTokens.automountDefault is false). It comes first in every channel, so
// the accounts are locked before any addon runs.
type ServiceAccountDefaults struct{}

func (ServiceAccountDefaults) Owns() []string { return []string{ServiceAccountDefaultsAddonName} }

func (ServiceAccountDefaults) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	tokens := ctx.Cluster.Spec.ServiceAccountTokens
	lockDefault := tokens != nil && tokens.AutomountDefault != nil && !*tokens.AutomountDefault
	manifest, err := templates.Render(models.FS(), serviceAccountDefaultsTemplate, []defaultAccount{
		{Namespace: "kube-system", Lock: true},
		{Namespace: "default", Lock: lockDefault},
	})
	if err != nil {
		return nil, err
	}
	return []*Addon{addonapi.NewAddon(ServiceAccountDefaultsAddonName, ServiceAccountDefaultsAddonID, manifest)}, nil
}

// lockDefaultServiceAccounts adds, after each Namespace manifest creates, its default
// ServiceAccount locked; the other documents are kept byte for byte.
func lockDefaultServiceAccounts(manifest []byte) ([]byte, error) {
	docs, err := kubemanifest.Split(manifest)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, doc := range docs {
		writeDoc(&out, doc)
		// Only the header is decoded; decoding whole documents is costly (docs/performance.md).
		var header struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Metadata   struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &header); err != nil {
			return nil, err
		}
		if header.APIVersion != "v1" || header.Kind != "Namespace" {
			continue
		}
		account, err := templates.Render(models.FS(), serviceAccountDefaultsTemplate, []defaultAccount{{Namespace: header.Metadata.Name, Lock: true}})
		if err != nil {
			return nil, err
		}
		writeDoc(&out, account)
	}
	return out.Bytes(), nil
}

func (ServiceAccountDefaults) Packages(*model.KopsModelContext) []string { return nil }
