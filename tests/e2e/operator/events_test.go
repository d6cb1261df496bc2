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
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/tests/e2e/framework"
)

// An operator may change only events it recorded: as each operator's token, a kubelet's Warning in
// the watch namespace cannot be rewritten into a Normal event of the operator's own (which would
// erase it), while the operator's own event can still be updated, as client-go's recorder does.
func TestEveryOperatorChangesOnlyItsOwnEvents(t *testing.T) {
	for _, op := range confinedOperators() {
		t.Run(op.name, func(t *testing.T) {
			d := op.descriptor()
			if !recordsEvents(d) {
				t.Skipf("%s has no right to record events in %s: RBAC refuses them all", d.Subject, d.WatchNamespace)
			}
			op.deploy(t)
			ctx := framework.Context(t)
			operatorCS, _ := asOperatorOf(t, d)
			me := d.EventReporter()
			event := func(name, component, host, eventType string) *corev1.Event {
				return &corev1.Event{
					ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: d.WatchNamespace},
					InvolvedObject: corev1.ObjectReference{APIVersion: d.CRD.APIVersion(), Kind: d.CRD.Kind, Name: d.Instructions,
						Namespace: d.WatchNamespace},
					Reason: "Test", Message: "m", Type: eventType, Count: 1,
					Source:              corev1.EventSource{Component: component, Host: host},
					ReportingController: component, ReportingInstance: host,
				}
			}
			kubelets, err := env.Clientset.CoreV1().Events(d.WatchNamespace).Create(ctx, event("kubelet-warning-"+d.DeploymentName, "kubelet", "node-1", corev1.EventTypeWarning), metav1.CreateOptions{})
			require.NoError(t, err, "the admin records a kubelet's event")
			rewrite, err := json.Marshal(map[string]interface{}{
				"type": corev1.EventTypeNormal, "message": "nothing to see",
				"source":             map[string]string{"component": me, "host": me},
				"reportingComponent": me, "reportingInstance": me,
			})
			require.NoError(t, err)
			_, err = operatorCS.CoreV1().Events(d.WatchNamespace).Patch(ctx, kubelets.Name, types.MergePatchType, rewrite, metav1.PatchOptions{DryRun: dryRun})
			assertPolicyDenied(t, err, d.PolicyName, "rewrite of the kubelet's event")

			own, err := operatorCS.CoreV1().Events(d.WatchNamespace).Create(ctx, event("own-"+d.DeploymentName, me, me, corev1.EventTypeNormal), metav1.CreateOptions{})
			require.NoError(t, err, "the operator records its own event")
			_, err = operatorCS.CoreV1().Events(d.WatchNamespace).Patch(ctx, own.Name, types.MergePatchType, []byte(`{"count":2,"message":"again"}`), metav1.PatchOptions{})
			assert.NoError(t, err, "the operator updates its own event")
		})
	}
}

// recordsEvents says whether d's rights let the operator create events in its watch namespace.
func recordsEvents(d *confine.Descriptor) bool {
	for _, r := range d.Rights {
		if r.Namespace == d.WatchNamespace && r.APIGroup == "" && slices.Contains(r.Resources, "events") && slices.Contains(r.Verbs, "create") {
			return true
		}
	}
	return false
}
