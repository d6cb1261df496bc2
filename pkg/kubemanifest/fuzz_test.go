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
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/util/pkg/allocbound"
)

var manifestSeeds = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: kube-system}\ndata: {Corefile: x}\n",
	"# comment\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      initContainers: [{name: i, image: busybox}]\n      containers: [{name: c, image: 'registry.k8s.io/coredns/coredns:v1.12.4', resources: {requests: {cpu: 1000m}}}]\n",
	"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: c, image: x}], ephemeralContainers: [{name: e, image: y}]}}}\n---\napiVersion: addons.x-k8s.io/v1alpha1\nkind: CoreDNS\nmetadata: {name: coredns}\nspec: {image: z}\n",
	"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: j}\nspec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c}]}}}}}\n",
	"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 53, protocol: UDP}], bogus: 1}\n---x\n",
}

// FuzzDecodeStrict: manifests come from channels and templates. Decoding must not panic and must
// work in proportion to the input; every object accepted is of a kind in the table, each one's raw
// document decodes alone to the same object, and the typed objects, written out again, decode to
// the same objects.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range manifestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var objs []*Object
		var err error
		allocbound.Check(t, len(data), func() { objs, err = DecodeStrict(data) })
		if err != nil {
			return
		}
		for _, o := range objs {
			require.Contains(t, typed, o.APIVersion+"/"+o.Kind)
			alone, err := DecodeStrict(o.Raw)
			require.NoError(t, err, "document alone:\n%s", o.Raw)
			require.Len(t, alone, 1)
			assert.Equal(t, o.Key(), alone[0].Key())

			written, err := yaml.Marshal(o.Typed)
			require.NoError(t, err)
			back, err := DecodeStrict(written)
			require.NoError(t, err, "re-decoding our own output:\n%s", written)
			require.Len(t, back, 1)
			want, err := json.Marshal(o.Typed)
			require.NoError(t, err)
			got, err := json.Marshal(back[0].Typed)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		}
	})
}

// FuzzImages: the images kops remaps and checks are those Images lists. Listing must not panic and
// must work in proportion to the input; every field it names lies under the kind's pod spec (or is
// spec.image of an addons.x-k8s.io object); and for what DecodeStrict also reads, it lists exactly
// the images of the typed Deployments and DaemonSets, in order. A walk that missed a container list
// would leave an image unremapped.
func FuzzImages(f *testing.F) {
	for _, s := range manifestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var uses []ImageUse
		var err error
		allocbound.Check(t, len(data), func() { uses, err = Images(data) })
		if err != nil {
			return
		}
		for _, u := range uses {
			kind, _, _ := strings.Cut(u.Object, "/")
			if path, ok := PodSpecPath(kind); ok {
				assert.Regexp(t, `^`+regexp.QuoteMeta(joinPath(path))+`\.(initContainers|containers|ephemeralContainers)\[\d+\]\.image$`, u.Field)
			} else {
				assert.Equal(t, "spec.image", u.Field)
			}
		}
		objs, err := DecodeStrict(data)
		if err != nil {
			return
		}
		var want []ImageUse
		for _, o := range objs {
			var spec *corev1.PodSpec
			switch typed := o.Typed.(type) {
			case *appsv1.Deployment:
				spec = &typed.Spec.Template.Spec
			case *appsv1.DaemonSet:
				spec = &typed.Spec.Template.Spec
			default:
				continue
			}
			add := func(list string, images []string) {
				for i, image := range images {
					want = append(want, ImageUse{Object: o.Key(), Field: fmt.Sprintf("spec.template.spec.%s[%d].image", list, i), Image: image})
				}
			}
			add("initContainers", containerImages(spec.InitContainers))
			add("containers", containerImages(spec.Containers))
			var ephemeral []string
			for _, c := range spec.EphemeralContainers {
				ephemeral = append(ephemeral, c.Image)
			}
			add("ephemeralContainers", ephemeral)
		}
		// Objects are compared by kind only: Images names an object without a name "Kind/<nil>".
		for _, list := range [][]ImageUse{want, uses} {
			for i := range list {
				list[i].Object, _, _ = strings.Cut(list[i].Object, "/")
			}
		}
		assert.Equal(t, want, uses)
	})
}

func containerImages(cs []corev1.Container) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Image)
	}
	return out
}
