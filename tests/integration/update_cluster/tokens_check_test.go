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

package updatecluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func account(namespace, name string, automount *bool) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, AutomountServiceAccountToken: automount}
}

func deployment(namespace, name, sa string, automount *bool) *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	d.Spec.Template.Spec = corev1.PodSpec{ServiceAccountName: sa, AutomountServiceAccountToken: automount}
	return d
}

// The checker catches each way to get a token past it.
func TestCheckTokens(t *testing.T) {
	locked := account("kube-system", "default", ptr.To(false))
	app := account("kube-system", "app", ptr.To(false))
	allowed := map[string]string{"Deployment/kube-system/allowed": "needs the API"}
	cases := []struct {
		name string
		objs []metav1.Object
		want []string
	}{
		{"clean", []metav1.Object{locked, app, deployment("kube-system", "quiet", "app", nil),
			deployment("kube-system", "allowed", "app", ptr.To(true))}, nil},
		{"kube-system's default account not locked", []metav1.Object{app}, []string{"namespace kube-system: its default ServiceAccount is not locked"}},
		{"a created namespace not locked", []metav1.Object{locked, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ops"}}},
			[]string{"namespace ops: its default ServiceAccount is not locked"}},
		{"an account that hands out tokens", []metav1.Object{locked, account("kube-system", "open", nil)},
			[]string{"ServiceAccount kube-system/open does not set automountServiceAccountToken: false"}},
		{"an account that says true", []metav1.Object{locked, account("kube-system", "open", ptr.To(true))},
			[]string{"ServiceAccount kube-system/open does not set automountServiceAccountToken: false"}},
		{"a pod as the default account", []metav1.Object{locked, deployment("kube-system", "d", "", ptr.To(false))},
			[]string{"Deployment/kube-system/d runs as the default ServiceAccount, not one of its own"}},
		{"a pod as an account kops does not render", []metav1.Object{locked, deployment("kube-system", "d", "ghost", ptr.To(false))},
			[]string{"Deployment/kube-system/d runs as ServiceAccount kube-system/ghost, which kops does not render"}},
		{"a pod that asks for a token without a reason", []metav1.Object{locked, app, deployment("kube-system", "d", "app", ptr.To(true))},
			[]string{"Deployment/kube-system/d mounts a service-account token, and the allow-list has no reason for it"}},
		{"a DaemonSet too", []metav1.Object{locked, app, &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "ds"},
			Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{ServiceAccountName: "app", AutomountServiceAccountToken: ptr.To(true)}}}}},
			[]string{"DaemonSet/kube-system/ds mounts a service-account token, and the allow-list has no reason for it"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			used := map[string]bool{}
			assert.Equal(t, tc.want, checkTokens(tc.objs, allowed, used))
		})
	}
}
