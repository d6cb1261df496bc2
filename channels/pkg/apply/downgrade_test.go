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

package apply

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestIsDowngrade(t *testing.T) {
	const repo = "registry.k8s.io/coredns/coredns"
	cases := []struct {
		running, wanted string
		want            bool
	}{
		{repo + ":v1.14.2", repo + ":v1.12.4", true},
		{repo + ":v1.12.4", repo + ":v1.14.2", false},
		{repo + ":v1.14.2", repo + ":v1.14.2", false},
		{repo + ":1.14.2", repo + ":v1.9.3", true}, // with and without v; 9 < 14 as numbers, not strings
		{repo + ":v1.10", repo + ":v1.9.3", true},  // two-part version
		{repo + ":v1.10.1", repo + ":v1.10.1-eks-1-28-6", true},
		{repo + ":v1.14.2@sha256:" + sixtyFour, repo + ":v1.12.4@sha256:" + sixtyFour, true}, // the digest does not hide the tag
		{"localhost:5000/coredns:v1.14.2", "localhost:5000/coredns:v1.12.4", true},           // a registry port is not a tag
		{"localhost:5000/coredns", "localhost:5000/coredns:v1.12.4", false},                  // no tag running: no order
		// No order known: not a downgrade.
		{repo + ":latest", repo + ":v1.12.4", false},
		{repo + ":v1.14.2", repo + ":latest", false},
		{repo + ":20240101", repo + ":v1.12.4", false},
		{repo + "@sha256:" + sixtyFour, repo + ":v1.12.4", false},
		{repo + ":v1.14.2", repo + "@sha256:" + sixtyFour, false},
		{"registry.example.com/mirror/coredns/coredns:v1.14.2", repo + ":v1.12.4", false}, // another repository
		// The repositories are compared normalised: busybox is docker.io/library/busybox.
		{"busybox:1.37.0", "docker.io/library/busybox:1.36.1", true},
		{"index.docker.io/busybox:1.37.0", "busybox:1.36.1", true},
		{repo + ":v1.14.2", repo + ":v1.12.4@sha256:0123", false}, // an invalid reference has no order
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, IsDowngrade(tc.running, tc.wanted), "%s -> %s", tc.running, tc.wanted)
	}
}

const sixtyFour = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func podTemplate(containers, initContainers []interface{}) *unstructured.Unstructured {
	spec := map[string]interface{}{"containers": containers}
	if initContainers != nil {
		spec["initContainers"] = initContainers
	}
	return object("apps/v1", "Deployment", "coredns", map[string]interface{}{
		"spec": map[string]interface{}{"template": map[string]interface{}{"spec": spec}},
	})
}

func container(name, image string) interface{} {
	return map[string]interface{}{"name": name, "image": image}
}

func TestDowngradesComparesContainersByName(t *testing.T) {
	path := podSpecPaths[schema.GroupKind{Group: "apps", Kind: "Deployment"}]
	live := podTemplate(
		[]interface{}{container("coredns", "r/coredns:v1.14.2"), container("sidecar", "r/side:v2.0.0")},
		[]interface{}{container("init", "r/init:v3.1.0")})
	wanted := podTemplate(
		[]interface{}{container("sidecar", "r/side:v2.1.0"), container("coredns", "r/coredns:v1.12.4"), container("new", "r/new:v0.1.0")},
		[]interface{}{container("init", "r/init:v3.0.9")})
	assert.Equal(t, []Downgrade{
		{Object: "Deployment kube-system/coredns", Container: "initContainers[init]", Running: "r/init:v3.1.0", Wanted: "r/init:v3.0.9"},
		{Object: "Deployment kube-system/coredns", Container: "containers[coredns]", Running: "r/coredns:v1.14.2", Wanted: "r/coredns:v1.12.4"},
	}, downgrades("Deployment kube-system/coredns", live, wanted, path))

	// A container moving between the lists is a new container in its new list.
	moved := podTemplate([]interface{}{container("init", "r/init:v1.0.0")}, nil)
	assert.Empty(t, downgrades("d", live, moved, path))
	err := &DowngradeError{Downgrades: downgrades("Deployment kube-system/coredns", live, wanted, path)}
	assert.Equal(t, "refusing to downgrade (pass --allow-downgrade to apply anyway): "+
		"Deployment kube-system/coredns initContainers[init] runs r/init:v3.1.0; the channel would replace it with r/init:v3.0.9, a lower version; "+
		"Deployment kube-system/coredns containers[coredns] runs r/coredns:v1.14.2; the channel would replace it with r/coredns:v1.12.4, a lower version",
		err.Error())
}

func TestPodSpecPathsReachThePodSpec(t *testing.T) {
	cron := object("batch/v1", "CronJob", "c", map[string]interface{}{"spec": map[string]interface{}{"jobTemplate": map[string]interface{}{
		"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container("c", "r/c:v2.0.0")}}}}}}})
	older := object("batch/v1", "CronJob", "c", map[string]interface{}{"spec": map[string]interface{}{"jobTemplate": map[string]interface{}{
		"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container("c", "r/c:v1.0.0")}}}}}}})
	assert.Len(t, downgrades("CronJob c", cron, older, podSpecPaths[cron.GroupVersionKind().GroupKind()]), 1)
	pod := object("v1", "Pod", "p", map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container("c", "r/c:v2.0.0")}}})
	olderPod := object("v1", "Pod", "p", map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container("c", "r/c:v1.0.0")}}})
	assert.Len(t, downgrades("Pod p", pod, olderPod, podSpecPaths[pod.GroupVersionKind().GroupKind()]), 1)
}
