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

// The admission policy admits exactly kops's rendering, so these checks refuse a template that
// would let the operator run pods it should not.

func checkRendered(kind string, obj metav1.Object) error {
	if check := managedKinds[kind].rendered; check != nil {
		return check(obj)
	}
	return nil
}

// renderedDeployment requires a Deployment's pods to run as their own account, never as root.
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

// renderedDaemonSet requires a DaemonSet's pods to run as their own account. Root and host access
// are allowed: node agents need them, and the exact match admits only what is rendered.
func renderedDaemonSet(obj metav1.Object) error {
	o, ok := obj.(*appsv1.DaemonSet)
	if !ok {
		return fmt.Errorf("a DaemonSet decodes as %T", obj)
	}
	return ownAccount("DaemonSet", o.Name, &o.Spec.Template.Spec)
}

// ownAccount refuses a pod template on the namespace's default ServiceAccount, which is shared.
func ownAccount(kind, name string, pod *corev1.PodSpec) error {
	if pod.ServiceAccountName == "" || pod.ServiceAccountName == "default" {
		return fmt.Errorf("%s %s: spec.template.spec.serviceAccountName must name the workload's own ServiceAccount", kind, name)
	}
	return nil
}
