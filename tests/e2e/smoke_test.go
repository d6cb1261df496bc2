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

package e2e

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

func TestServerVersion(t *testing.T) {
	version, err := env.Clientset.Discovery().ServerVersion()
	require.NoError(t, err)
	assert.Equal(t, framework.KubernetesVersion, version.GitVersion)
}

// Without RBAC every request is allowed and no authorization test means
// anything, so check that an identity bound to nothing is refused.
func TestRBACDeniesUnboundUser(t *testing.T) {
	const user = "e2e-smoke-unbound"

	allowed, reason, err := env.SubjectAccessReview(user, nil, "list", "", "pods", "", "default", "")
	require.NoError(t, err)
	assert.False(t, allowed, "an unbound user may list pods: %s", reason)

	clientset, err := kubernetes.NewForConfig(env.Impersonate(user))
	require.NoError(t, err)
	_, err = clientset.CoreV1().Pods("default").List(framework.Context(t), metav1.ListOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "want 403 Forbidden, got %v", err)

	// The same holds for a service account bound to nothing.
	saUser, saGroups := framework.ServiceAccountUser("default", "e2e-smoke")
	allowed, reason, err = env.SubjectAccessReview(saUser, saGroups, "list", "", "pods", "", "default", "")
	require.NoError(t, err)
	assert.False(t, allowed, "an unbound service account may list pods: %s", reason)

	saClientset, err := kubernetes.NewForConfig(env.ServiceAccountConfig("default", "e2e-smoke"))
	require.NoError(t, err)
	_, err = saClientset.CoreV1().Pods("default").List(framework.Context(t), metav1.ListOptions{})
	assert.True(t, apierrors.IsForbidden(err), "want 403 Forbidden, got %v", err)
}

func TestRBACAllowsAdmin(t *testing.T) {
	allowed, reason, err := env.SubjectAccessReview("e2e-smoke-admin", []string{"system:masters"}, "list", "", "pods", "", "default", "")
	require.NoError(t, err)
	assert.True(t, allowed, "a member of system:masters may not list pods: %s", reason)
}

func TestAdminCreatesAndReadsConfigMap(t *testing.T) {
	ctx := framework.Context(t)
	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "e2e-smoke"},
		Data:       map[string]string{"greeting": "hello"},
	}
	require.NoError(t, env.Client.Create(ctx, want))
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), want) })

	got := &corev1.ConfigMap{}
	require.NoError(t, env.Client.Get(ctx, client.ObjectKeyFromObject(want), got))
	assert.Equal(t, want.Data, got.Data)
	assert.NotEmpty(t, got.UID)

	viaClientset, err := env.Clientset.CoreV1().ConfigMaps("default").Get(ctx, "e2e-smoke", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, got.UID, viaClientset.UID)
}
