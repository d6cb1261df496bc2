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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

// objects renders c and returns its typed objects by kind.
func objects(t *testing.T, c Config) (*corev1.ServiceAccount, *rbacv1.ClusterRole, *rbacv1.ClusterRoleBinding, *appsv1.DaemonSet) {
	t.Helper()
	manifest, err := Render(c)
	require.NoError(t, err)
	objs, err := kubemanifest.DecodeStrict(manifest)
	require.NoError(t, err, "every object decodes into its typed struct, unknown fields refused")
	require.Len(t, objs, 4)
	sa, ok1 := objs[0].Typed.(*corev1.ServiceAccount)
	role, ok2 := objs[1].Typed.(*rbacv1.ClusterRole)
	binding, ok3 := objs[2].Typed.(*rbacv1.ClusterRoleBinding)
	ds, ok4 := objs[3].Typed.(*appsv1.DaemonSet)
	require.True(t, ok1 && ok2 && ok3 && ok4, "ServiceAccount, ClusterRole, ClusterRoleBinding, DaemonSet in this order")
	for _, o := range objs {
		assert.Equal(t, AddonName, o.Typed.GetLabels()["addon.kops.k8s.io/name"], o.Key())
	}
	return sa, role, binding, ds
}

func TestRenderArgs(t *testing.T) {
	base := Config{Image: DefaultImage, Port: 8181}
	cases := []struct {
		name   string
		config func(Config) Config
		args   []string
	}{
		{"defaults", func(c Config) Config { return c },
			[]string{"--app-port=8181", "--host-ip=$(HOST_IP)", "--iptables=false", "--node=$(NODE_NAME)"}},
		{"every option", func(c Config) Config {
			c.Port, c.BaseRoleARN, c.DefaultRole, c.NamespaceRestrictions = 8282, "arn:aws:iam::123456789012:role/", "pods", true
			return c
		}, []string{"--app-port=8282", "--base-role-arn=arn:aws:iam::123456789012:role/", "--default-role=pods",
			"--host-ip=$(HOST_IP)", "--iptables=false", "--namespace-restrictions", "--node=$(NODE_NAME)"}},
		// YAML-significant characters stay inside their one argument.
		{"quoted values", func(c Config) Config { c.DefaultRole = `a:"b"#c,[d]`; return c },
			[]string{"--app-port=8181", `--default-role=a:"b"#c,[d]`, "--host-ip=$(HOST_IP)", "--iptables=false", "--node=$(NODE_NAME)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.config(base)
			_, _, _, ds := objects(t, c)
			container := ds.Spec.Template.Spec.Containers[0]
			assert.Equal(t, tc.args, container.Args)
			assert.NotContains(t, container.Args, "--auto-discover-base-arn", "the base ARN is never read from the instance")
			assert.Equal(t, c.Port, container.Ports[0].ContainerPort)
			assert.Equal(t, c.Port, container.Ports[0].HostPort)
			for _, probe := range []*corev1.Probe{container.LivenessProbe, container.ReadinessProbe} {
				require.NotNil(t, probe)
				assert.Equal(t, "/healthz", probe.HTTPGet.Path)
				assert.Equal(t, c.Port, probe.HTTPGet.Port.IntVal)
				assert.Empty(t, probe.HTTPGet.Host, "probes go to the pod's (the node's) address")
			}
		})
	}
}

// The identity and rights: a ServiceAccount of its own that hands out no token by itself, and a
// ClusterRole that reads pods and namespaces and nothing else.
func TestRenderRights(t *testing.T) {
	sa, role, binding, ds := objects(t, Config{Image: DefaultImage, Port: 8181})
	assert.Equal(t, Namespace, sa.Namespace)
	assert.Equal(t, ServiceAccount, sa.Name)
	require.NotNil(t, sa.AutomountServiceAccountToken)
	assert.False(t, *sa.AutomountServiceAccountToken)
	assert.Equal(t, []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods", "namespaces"}, Verbs: []string{"get", "list", "watch"}}}, role.Rules)
	assert.Equal(t, rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name}, binding.RoleRef)
	assert.Equal(t, []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: ServiceAccount, Namespace: Namespace}}, binding.Subjects)
	assert.Equal(t, ServiceAccount, ds.Spec.Template.Spec.ServiceAccountName)
	require.NotNil(t, ds.Spec.Template.Spec.AutomountServiceAccountToken)
	assert.True(t, *ds.Spec.Template.Spec.AutomountServiceAccountToken, "kube2iam watches the API")
}

// As tight as kube2iam allows without iptables: the host network, and nothing else.
func TestRenderConfinement(t *testing.T) {
	_, _, _, ds := objects(t, Config{Image: DefaultImage, Port: 8181})
	pod := ds.Spec.Template.Spec
	assert.True(t, pod.HostNetwork, "it listens on the node's address and reaches the instance metadata")
	assert.False(t, pod.HostPID)
	assert.False(t, pod.HostIPC)
	assert.Empty(t, pod.Volumes)
	assert.Empty(t, pod.InitContainers)
	require.NotNil(t, pod.SecurityContext)
	assert.True(t, *pod.SecurityContext.RunAsNonRoot)
	assert.NotZero(t, *pod.SecurityContext.RunAsUser)
	assert.Equal(t, corev1.SeccompProfileTypeRuntimeDefault, pod.SecurityContext.SeccompProfile.Type)
	assert.Equal(t, []corev1.Toleration{{Operator: corev1.TolerationOpExists}}, pod.Tolerations, "on every node pods run on")
	require.Len(t, pod.Containers, 1)
	c := pod.Containers[0]
	require.NotNil(t, c.SecurityContext)
	assert.False(t, *c.SecurityContext.AllowPrivilegeEscalation)
	assert.Nil(t, c.SecurityContext.Privileged)
	assert.True(t, *c.SecurityContext.ReadOnlyRootFilesystem)
	assert.Equal(t, []corev1.Capability{"ALL"}, c.SecurityContext.Capabilities.Drop)
	assert.Empty(t, c.SecurityContext.Capabilities.Add, "no NET_ADMIN: the node rules are kops's, not kube2iam's")
	assert.False(t, c.Resources.Requests.Cpu().IsZero())
	assert.False(t, c.Resources.Requests.Memory().IsZero())
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.ValueFrom.FieldRef.FieldPath
	}
	assert.Equal(t, map[string]string{"HOST_IP": "status.hostIP", "NODE_NAME": "spec.nodeName"}, env)
}

func TestRenderRefuses(t *testing.T) {
	cases := []struct {
		name   string
		config Config
		want   []string
	}{
		{"no image", Config{Port: 8181}, []string{"image: is empty"}},
		{"port zero", Config{Image: DefaultImage}, []string{"port: 0 is not between 1 and 65535"}},
		{"port too high", Config{Image: DefaultImage, Port: 70000}, []string{"port: 70000"}},
		{"a second argument", Config{Image: DefaultImage, Port: 8181, DefaultRole: "pods --debug"}, []string{`defaultRole: "pods --debug" contains whitespace`}},
		{"a newline", Config{Image: DefaultImage, Port: 8181, BaseRoleARN: "arn\n- --debug"}, []string{"baseRoleARN"}},
		{"every problem at once", Config{DefaultRole: "a b"}, []string{"image: is empty", "port: 0", "defaultRole: "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Render(tc.config)
			require.Error(t, err)
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}
