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

package operator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/tests/e2e/framework"
)

// The pod template's Corefile checksum is the CoreDNS object's spec.corefileChecksum, on the real
// API server: the operator may write the Deployment kops renders, whose annotation is that field,
// and no other value, none missing, and no other pod template annotation (which would roll CoreDNS
// at the operator's will).
func TestOperatorChecksumIsTheInstructions(t *testing.T) {
	setup(t)
	builtIn(t)
	ensureRendered(t)
	ctx := framework.Context(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	cr, err := dyn.Resource(corednsResource).Namespace("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	params, _, _ := unstructured.NestedString(cr.Object, "spec", "corefileChecksum")
	corefile, _, _ := unstructured.NestedString(cr.Object, "spec", "corefile")
	require.Equal(t, coredns.CorefileChecksum(corefile), params, "kops wrote the checksum of the Corefile it wrote")
	require.Equal(t, params, rendered.deployment.Spec.Template.Annotations[coredns.CorefileChecksumAnnotation],
		"the built-in addon renders the same checksum as the operator's instructions carry")

	operator, _ := asOperator(t)
	asItself := metav1.UpdateOptions{DryRun: dryRun, FieldManager: corednsmodel.Descriptor().FieldManager()}
	_, err = operator.AppsV1().Deployments("kube-system").Update(ctx, currentDeployment(t), asItself)
	assert.NoError(t, err, "the rendered Deployment, its checksum the instructions'")

	for name, annotations := range map[string]func(map[string]string){
		"another Corefile's checksum": func(a map[string]string) {
			a[coredns.CorefileChecksumAnnotation] = coredns.CorefileChecksum(corefile + "# not kops's\n")
		},
		"no checksum":          func(a map[string]string) { delete(a, coredns.CorefileChecksumAnnotation) },
		"a restart of its own": func(a map[string]string) { a["kubectl.kubernetes.io/restartedAt"] = "2026-01-01T00:00:00Z" },
	} {
		t.Run(name, func(t *testing.T) {
			d := currentDeployment(t)
			if d.Spec.Template.Annotations == nil {
				d.Spec.Template.Annotations = map[string]string{}
			}
			annotations(d.Spec.Template.Annotations)
			_, err := operator.AppsV1().Deployments("kube-system").Update(ctx, d, asItself)
			assertDenied(t, err, name, "Deployment coredns only as kops renders it: spec exactly as rendered, with spec.image and spec.corefileChecksum of its instructions")
		})
	}
}
