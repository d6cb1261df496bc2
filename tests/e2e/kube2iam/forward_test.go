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

package kube2iam

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/validation"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// kube2IAMSelector finds every object of the addon.
var kube2IAMSelector = metav1.ListOptions{LabelSelector: "addon.kops.k8s.io/name=" + kube2iam.AddonName}

// setMode stores spec.podMetadataAccess.mode as a user does with `kops edit cluster`: the forward
// settings are kept aside while the mode is not Forward (validation refuses them then) and put back
// when it is.
func setMode(t *testing.T, s *kopsenv.Store, mode string) {
	s.EditCluster(t, func(c *kops.Cluster) {
		access := c.Spec.PodMetadataAccess
		if access.Forward != nil {
			keptForward = access.Forward
		}
		access.Mode, access.Forward = mode, nil
		if mode == kops.PodMetadataAccessForward {
			access.Forward = keptForward
		}
	})
}

// keptForward holds the forward settings while the mode is not Forward.
var keptForward *kops.PodMetadataForwardSpec

// leftOver lists what of kube2iam is on the server, by kind.
func leftOver(t *testing.T) map[string][]string {
	ctx := framework.Context(t)
	out := map[string][]string{}
	ds, err := env.Clientset.AppsV1().DaemonSets("").List(ctx, kube2IAMSelector)
	require.NoError(t, err)
	for _, o := range ds.Items {
		out["DaemonSet"] = append(out["DaemonSet"], o.Namespace+"/"+o.Name)
	}
	sas, err := env.Clientset.CoreV1().ServiceAccounts("").List(ctx, kube2IAMSelector)
	require.NoError(t, err)
	for _, o := range sas.Items {
		out["ServiceAccount"] = append(out["ServiceAccount"], o.Namespace+"/"+o.Name)
	}
	roles, err := env.Clientset.RbacV1().ClusterRoles().List(ctx, kube2IAMSelector)
	require.NoError(t, err)
	for _, o := range roles.Items {
		out["ClusterRole"] = append(out["ClusterRole"], o.Name)
	}
	bindings, err := env.Clientset.RbacV1().ClusterRoleBindings().List(ctx, kube2IAMSelector)
	require.NoError(t, err)
	for _, o := range bindings.Items {
		out["ClusterRoleBinding"] = append(out["ClusterRoleBinding"], o.Name)
	}
	return out
}

// kube2IAMClient carries a real token of kube2iam's ServiceAccount, issued by TokenRequest, and
// nothing of the admin's credentials.
func kube2IAMClient(t *testing.T) kubernetes.Interface {
	cfg, err := env.TokenConfig(framework.Context(t), kube2iam.Namespace, kube2iam.ServiceAccount)
	require.NoError(t, err)
	client, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return client
}

// Forward deploys kube2iam with read-only rights on pods and namespaces; Block retires it, and
// nothing of it is left; Forward again brings it back.
func TestForwardThenBlock(t *testing.T) {
	ctx := framework.Context(t)
	s := kopsenv.NewStore(t, "kube2iam")

	run := kopsenv.Apply(t, env, s.Update(t, ""), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()[kube2iam.AddonName], run.Output)
	assert.Equal(t, map[string][]string{
		"DaemonSet":          {"kube-system/kube2iam"},
		"ServiceAccount":     {"kube-system/kube2iam"},
		"ClusterRole":        {"kube2iam"},
		"ClusterRoleBinding": {"kube2iam"},
	}, leftOver(t), "every object accepted by the API server")
	ds, err := env.Clientset.AppsV1().DaemonSets(kube2iam.Namespace).Get(ctx, kube2iam.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, ds.Spec.Template.Spec.HostNetwork)
	assert.Contains(t, ds.Spec.Template.Spec.Containers[0].Args, "--iptables=false")

	t.Run("rights by SubjectAccessReview", func(t *testing.T) { checkMatrix(t, true) })
	client := kube2IAMClient(t)
	t.Run("rights under its own token", func(t *testing.T) { checkRequests(t, client) })

	// Block: kops stops writing the addon, channels retires it.
	setMode(t, s, kops.PodMetadataAccessBlock)
	location := s.Update(t, "")
	dry := kopsenv.Apply(t, env, location, s.Mem, false)
	require.NoError(t, dry.Err, dry.Output)
	assert.Equal(t, apply.WouldPrune, dry.Outcomes()[kube2iam.AddonName], dry.Output)
	assert.NotEmpty(t, leftOver(t), "a dry run deletes nothing")

	run = kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Retired, run.Outcomes()[kube2iam.AddonName], run.Output)
	assert.Equal(t, apply.Unchanged, run.Outcomes()["coredns.addons.k8s.io"], "the other addons are not touched")
	assert.Empty(t, leftOver(t), "nothing of kube2iam is left")
	for _, get := range []func() error{
		func() error {
			_, err := env.Clientset.AppsV1().DaemonSets("kube-system").Get(ctx, "kube2iam", metav1.GetOptions{})
			return err
		},
		func() error {
			_, err := env.Clientset.CoreV1().ServiceAccounts("kube-system").Get(ctx, "kube2iam", metav1.GetOptions{})
			return err
		},
		func() error {
			_, err := env.Clientset.RbacV1().ClusterRoles().Get(ctx, "kube2iam", metav1.GetOptions{})
			return err
		},
		func() error {
			_, err := env.Clientset.RbacV1().ClusterRoleBindings().Get(ctx, "kube2iam", metav1.GetOptions{})
			return err
		},
	} {
		assert.True(t, apierrors.IsNotFound(get()), "deleted, not just unlabelled")
	}
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	assert.NotContains(t, ns.Annotations, channelsapi.RecordKeyPrefix+kube2iam.AddonName, "its record is removed")
	t.Run("no rights left", func(t *testing.T) { checkMatrix(t, false) })
	_, err = client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	// The server may still accept the token until it notices the account is gone; either way it
	// carries no right any more.
	assert.True(t, apierrors.IsUnauthorized(err) || apierrors.IsForbidden(err), "a token of the retired ServiceAccount reads nothing: %v", err)

	// Forward again: the addon comes back.
	setMode(t, s, kops.PodMetadataAccessForward)
	run = kopsenv.Apply(t, env, s.Update(t, ""), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()[kube2iam.AddonName], run.Output)
	assert.Len(t, leftOver(t)["DaemonSet"], 1)
}

// checkRequests makes real requests as kube2iam: it reads pods and namespaces, and nothing else.
func checkRequests(t *testing.T, client kubernetes.Interface) {
	ctx := framework.Context(t)
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube2iam-e2e"}}
	_, err := env.Clientset.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
	require.NoError(t, err)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: ns.Name,
		Annotations: map[string]string{"iam.amazonaws.com/role": "app"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}}}}
	_, err = env.Clientset.CoreV1().Pods(ns.Name).Create(ctx, pod, metav1.CreateOptions{})
	require.NoError(t, err)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "kube2iam-e2e", Namespace: "kube-system"}, StringData: map[string]string{"k": "v"}}
	_, err = env.Clientset.CoreV1().Secrets("kube-system").Create(ctx, secret, metav1.CreateOptions{})
	require.NoError(t, err)

	pods, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	require.NoError(t, err, "lists pods in every namespace")
	assert.NotEmpty(t, pods.Items)
	got, err := client.CoreV1().Pods(ns.Name).Get(ctx, "app", metav1.GetOptions{})
	require.NoError(t, err, "gets a pod")
	assert.Equal(t, "app", got.Annotations["iam.amazonaws.com/role"])
	_, err = client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(t, err, "lists namespaces")
	w, err := client.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{})
	require.NoError(t, err, "watches pods")
	w.Stop()

	denied := map[string]func() error{
		"get a secret": func() error {
			_, err := client.CoreV1().Secrets("kube-system").Get(ctx, secret.Name, metav1.GetOptions{})
			return err
		},
		"list secrets": func() error { _, err := client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{}); return err },
		"list configmaps": func() error {
			_, err := client.CoreV1().ConfigMaps("kube-system").List(ctx, metav1.ListOptions{})
			return err
		},
		"create a pod": func() error {
			p := pod.DeepCopy()
			p.Name, p.ResourceVersion = "intruder", ""
			_, err := client.CoreV1().Pods(ns.Name).Create(ctx, p, metav1.CreateOptions{})
			return err
		},
		"patch a pod's role": func() error {
			_, err := client.CoreV1().Pods(ns.Name).Patch(ctx, "app", types.MergePatchType,
				[]byte(`{"metadata":{"annotations":{"iam.amazonaws.com/role":"admin"}}}`), metav1.PatchOptions{})
			return err
		},
		"delete a pod": func() error { return client.CoreV1().Pods(ns.Name).Delete(ctx, "app", metav1.DeleteOptions{}) },
		"annotate a namespace": func() error {
			_, err := client.CoreV1().Namespaces().Patch(ctx, ns.Name, types.MergePatchType,
				[]byte(`{"metadata":{"annotations":{"iam.amazonaws.com/allowed-roles":"[\"*\"]"}}}`), metav1.PatchOptions{})
			return err
		},
		"mint a token": func() error {
			_, err := client.CoreV1().ServiceAccounts(kube2iam.Namespace).CreateToken(ctx, kube2iam.ServiceAccount,
				&authenticationv1.TokenRequest{}, metav1.CreateOptions{})
			return err
		},
		"list nodes": func() error { _, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); return err },
	}
	for name, call := range denied {
		err := call()
		assert.True(t, apierrors.IsForbidden(err), "%s: want Forbidden, got %v", name, err)
	}
	_, err = env.Clientset.CoreV1().Pods(ns.Name).Get(ctx, "app", metav1.GetOptions{})
	require.NoError(t, err, "the pod is still there")
	t.Cleanup(func() {
		_ = env.Clientset.CoreV1().Secrets("kube-system").Delete(context.Background(), secret.Name, metav1.DeleteOptions{})
	})
}

// kops validate cluster checks kube2iam's DaemonSet in mode Forward: ready on every node it is
// scheduled to, as its controller reports (none runs on the test server, so the test plays it).
func TestValidateKube2IAM(t *testing.T) {
	ctx := framework.Context(t)
	s := kopsenv.NewStore(t, "kube2iam-namespace-restrictions")
	location := s.Update(t, "")
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)

	// What kops validate cluster reads: the channel kops update wrote, below the cluster's configBase.
	cluster := &kops.Cluster{}
	cluster.Name = "restricted.example.com"
	cluster.Spec.ConfigBase = strings.TrimSuffix(location, "/"+addons.BootstrapChannelLocation)
	expected, err := validation.ReadExpected(cluster, vfs.NewContext(s.Mem))
	require.NoError(t, err)
	require.True(t, expected.Kube2IAM)
	validator, err := validation.NewValidator(env.Config)
	require.NoError(t, err)
	check := func() validation.Check {
		result, err := validator.Validate(ctx, expected)
		require.NoError(t, err)
		for _, c := range result.Checks {
			if c.Kind == "DaemonSet" {
				return c
			}
		}
		require.FailNow(t, "no DaemonSet check")
		return validation.Check{}
	}
	// The DaemonSet may be a new one or the earlier test's with a new spec (port 8282): either way
	// its controller has not seen the latest generation.
	first := check()
	assert.False(t, first.OK)
	assert.Regexp(t, `^not ready: generation \d+ not yet observed by its controller$`, first.Message)

	setStatus := func(desired, ready, updated int32) {
		ds, err := env.Clientset.AppsV1().DaemonSets("kube-system").Get(ctx, "kube2iam", metav1.GetOptions{})
		require.NoError(t, err)
		ds.Status = appsv1.DaemonSetStatus{ObservedGeneration: ds.Generation, DesiredNumberScheduled: desired,
			CurrentNumberScheduled: desired, NumberReady: ready, UpdatedNumberScheduled: updated, NumberAvailable: ready}
		_, err = env.Clientset.AppsV1().DaemonSets("kube-system").UpdateStatus(ctx, ds, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
	setStatus(3, 2, 3)
	assert.Equal(t, validation.Check{Kind: "DaemonSet", Name: "kube-system/kube2iam", Message: "not ready: 2 of 3 nodes ready, 3 updated"}, check())
	setStatus(3, 3, 2)
	assert.False(t, check().OK, "a node still runs the old pod")
	setStatus(3, 3, 3)
	assert.Equal(t, validation.Check{Kind: "DaemonSet", Name: "kube-system/kube2iam", OK: true, Message: "ready on 3/3 nodes"}, check())
}
