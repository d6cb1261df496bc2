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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/operatortest"
)

// The Service metrics-server renders no address: the API server allocates one and sets its family
// (ipFamilies) from the cluster's first service range, which the rendering cannot know. The
// operator's writes of that Service, as the server holds them (the exact policy sees the object
// after the server filled it in), are admitted in an IPv4 and an IPv6 cluster; any other change
// of its spec is refused.
func TestServiceAsTheServerHoldsItIsAdmitted(t *testing.T) {
	rendered, _, objects := policyObjects(t)
	policies, err := operatortest.Compile(objects)
	require.NoError(t, err)

	var service map[string]interface{}
	objs, err := kubemanifest.DecodeStrict(rendered)
	require.NoError(t, err)
	for _, o := range objs {
		if o.Kind == "Service" {
			service, err = operatortest.CELObject(o.Raw)
			require.NoError(t, err)
		}
	}
	require.NotNil(t, service)
	require.NotContains(t, service["spec"], "ipFamilies", "the rendering leaves the family to the server")
	params := map[string]interface{}{"spec": map[string]interface{}{"image": spec.Image, "version": spec.Version, "insecure": true}}
	write := func(operation string, obj, old map[string]interface{}) []string {
		denied, err := policies.Denials(operatortest.Request{Operation: operation, Resource: "services", Namespace: metricsserver.WatchNamespace,
			Username: Descriptor().Username(), Object: obj, OldObject: old, Params: params})
		require.NoError(t, err)
		return denied
	}
	for family, address := range map[string]string{"IPv4": "100.64.0.17", "IPv6": "fd00:5e4f:ce::17"} {
		stored := runtime.DeepCopyJSON(service)
		s := stored["spec"].(map[string]interface{})
		s["clusterIP"], s["clusterIPs"], s["ipFamilies"] = address, []interface{}{address}, []interface{}{family}
		fresh := runtime.DeepCopyJSON(stored)
		// A create carries none of kops's channels' metadata: it is channels' to set.
		meta := fresh["metadata"].(map[string]interface{})
		for _, k := range operator.ChannelsLabels {
			delete(meta["labels"].(map[string]interface{}), k)
		}
		for _, k := range operator.ChannelsAnnotations {
			delete(meta["annotations"].(map[string]interface{}), k)
		}
		assert.Empty(t, write("CREATE", fresh, nil), "%s: create, as the server holds it", family)
		assert.Empty(t, write("UPDATE", stored, stored), "%s: update, as the server holds it", family)

		for _, m := range operatortest.Leaves(stored, func(path string) bool {
			return path == "apiVersion" || path == "kind" || path == "metadata.namespace" ||
				path == "spec.clusterIP" || path == "spec.clusterIPs[0]" || path == "spec.ipFamilies[0]"
		}) {
			assert.NotEmpty(t, write("UPDATE", m.Object, stored), "%s: %s was admitted", family, m.Path)
		}
	}
}
