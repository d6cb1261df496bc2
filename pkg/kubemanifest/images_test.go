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

package kubemanifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImages(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		want     []ImageUse
		wantErr  string
	}{
		{
			name: "deployment containers and init containers, in pod order",
			manifest: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apps}
spec:
  template:
    spec:
      containers:
      - {name: a, image: example.org/a:1}
      - {name: b, image: example.org/b:1}
      initContainers:
      - {name: i, image: example.org/init:1}
`,
			want: []ImageUse{
				{"Deployment/apps/web", "spec.template.spec.initContainers[0].image", "example.org/init:1"},
				{"Deployment/apps/web", "spec.template.spec.containers[0].image", "example.org/a:1"},
				{"Deployment/apps/web", "spec.template.spec.containers[1].image", "example.org/b:1"},
			},
		},
		{
			name: "every workload kind, and the operator's custom resource",
			manifest: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: pod:1}], ephemeralContainers: [{name: d, image: debug:1}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: ns}
spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c, image: cron:1}]}}}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: ns}
spec: {template: {spec: {containers: [{name: c, image: ds:1}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ss, namespace: ns}
spec: {template: {spec: {containers: [{name: c, image: ss:1}]}}}
---
apiVersion: addons.x-k8s.io/v1alpha1
kind: CoreDNS
metadata: {name: coredns, namespace: kube-system}
spec: {version: 1.12.4, image: registry.k8s.io/coredns/coredns:v1.12.4}
`,
			want: []ImageUse{
				{"Pod/p", "spec.containers[0].image", "pod:1"},
				{"Pod/p", "spec.ephemeralContainers[0].image", "debug:1"},
				{"CronJob/ns/cj", "spec.jobTemplate.spec.template.spec.containers[0].image", "cron:1"},
				{"DaemonSet/ns/ds", "spec.template.spec.containers[0].image", "ds:1"},
				{"StatefulSet/ns/ss", "spec.template.spec.containers[0].image", "ss:1"},
				{"CoreDNS/kube-system/coredns", "spec.image", "registry.k8s.io/coredns/coredns:v1.12.4"},
			},
		},
		{
			name: "objects that run nothing name no image",
			manifest: `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {image: not-an-image}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {image: not-ours-to-read}
`,
		},
		{
			name:     "a container without an image is an error",
			manifest: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: c}]}}}\n",
			wantErr:  "document 1 (Deployment/d): spec.template.spec.containers[0] has no image",
		},
		{
			name:     "a custom resource image that is not a string is an error",
			manifest: "apiVersion: addons.x-k8s.io/v1alpha1\nkind: CoreDNS\nmetadata: {name: c}\nspec: {image: [a]}\n",
			wantErr:  "spec.image is not a string",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Images([]byte(tt.manifest))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
