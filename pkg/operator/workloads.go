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
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// What kops's own rendering of a managed workload must hold. The admission policy admits exactly
// the rendering, so whatever the rendering allows the operator may write: these checks refuse, when
// kops derives the policy, a template that would let the operator's writes run pods it should not.

// checkRendered applies the kind's own check to a managed object as rendered.
func checkRendered(kind string, obj metav1.Object) error {
	if check := managedKinds[kind].rendered; check != nil {
		return check(obj)
	}
	return nil
}

// renderedDeployment: a Deployment's pods run as their own account, never as root. (CoreDNS and
// metrics-server need neither root nor the node.)
func renderedDeployment(obj metav1.Object) error {
	o, ok := obj.(*appsv1.Deployment)
	if !ok {
		return fmt.Errorf("a Deployment decodes as %T", obj)
	}
	if err := ownAccount("Deployment", o.Name, &o.Spec.Template.Spec); err != nil {
		return err
	}
	sc := o.Spec.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		return fmt.Errorf("Deployment %s: spec.template.spec.securityContext must set runAsNonRoot and a non-zero runAsUser", o.Name) //nolint:staticcheck // ST1005: starts with the object's Kind
	}
	return nil
}

// renderedDaemonSet: a DaemonSet's pods run as their own account. Root, the host's network and
// host paths are not refused: a per-node agent such as node-local-dns needs them, and the exact
// match admits exactly the ones rendered, no other.
func renderedDaemonSet(obj metav1.Object) error {
	o, ok := obj.(*appsv1.DaemonSet)
	if !ok {
		return fmt.Errorf("a DaemonSet decodes as %T", obj)
	}
	return ownAccount("DaemonSet", o.Name, &o.Spec.Template.Spec)
}

// ownAccount refuses a pod template without its own ServiceAccount: its pods would run as the
// namespace's default account, shared with whatever else runs there.
func ownAccount(kind, name string, pod *corev1.PodSpec) error {
	if pod.ServiceAccountName == "" || pod.ServiceAccountName == "default" {
		return fmt.Errorf("%s %s: spec.template.spec.serviceAccountName must name the workload's own ServiceAccount", kind, name)
	}
	return nil
}
