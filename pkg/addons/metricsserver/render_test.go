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

package metricsserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/kubemanifest/manifesttest"
)

var defaultSpec = Spec{Image: DefaultImage, Insecure: true}

// The managed part is exactly what a namespaced operator may write, and everything else kops
// writes itself: no managed object is cluster-scoped or grants rights, no prerequisite is one of
// the managed objects. The built-in addon is both, byte for byte.
func TestRenderSplitsWhoWritesWhat(t *testing.T) {
	managed, err := Render(defaultSpec)
	require.NoError(t, err)
	pre, err := RenderPrerequisites(defaultSpec, "metrics-server-prerequisites.example")
	require.NoError(t, err)

	m := manifesttest.Decode(t, managed)
	assert.Equal(t, []string{"ServiceAccount/kube-system/metrics-server", "Service/kube-system/metrics-server", "Deployment/kube-system/metrics-server"}, m.Keys)
	p := manifesttest.Decode(t, pre)
	assert.Equal(t, []string{
		"ClusterRole/system:aggregated-metrics-reader", "ClusterRole/system:metrics-server",
		"ClusterRoleBinding/system:metrics-server", "ClusterRoleBinding/metrics-server:system:auth-delegator",
		"RoleBinding/kube-system/metrics-server-auth-reader", "APIService/v1beta1.metrics.k8s.io",
		"PodDisruptionBudget/kube-system/metrics-server",
	}, p.Keys)
	for _, key := range m.Keys {
		assert.Equal(t, Namespace, m.Objects[key].GetNamespace(), key)
		assert.Equal(t, AddonName, m.Objects[key].GetLabels()["addon.kops.k8s.io/name"], "%s: labelled for the built-in addon in every mode", key)
		assert.Equal(t, OperatorAddonName, m.Objects[key].GetAnnotations()["addon.kops.k8s.io/handover-to"], key)
		assert.NotContains(t, p.Objects, key)
	}
	for _, key := range p.Keys {
		assert.Equal(t, "metrics-server-prerequisites.example", p.Objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
		assert.Empty(t, p.Objects[key].GetAnnotations()["addon.kops.k8s.io/handover-to"], "%s is kops's in every mode", key)
	}

	builtIn, err := RenderBuiltIn(defaultSpec)
	require.NoError(t, err)
	preBuiltIn, err := RenderPrerequisites(defaultSpec, AddonName)
	require.NoError(t, err)
	assert.Equal(t, string(preBuiltIn)+"---\n"+string(managed), string(builtIn))
	assert.NotContains(t, string(builtIn), "{{")
	assert.True(t, strings.HasSuffix(string(builtIn), "\n") && !strings.HasSuffix(string(builtIn), "\n\n"))
}

func TestRenderIsDeterministic(t *testing.T) {
	a, err := RenderBuiltIn(defaultSpec)
	require.NoError(t, err)
	b, err := RenderBuiltIn(defaultSpec)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	withVersion := defaultSpec
	withVersion.Version = DefaultVersion
	c, err := Render(withVersion)
	require.NoError(t, err)
	d, err := Render(defaultSpec)
	require.NoError(t, err)
	assert.Equal(t, d, c, "the version does not change the objects: the image carries it")
}

func TestRenderRefuses(t *testing.T) {
	for name, spec := range map[string]Spec{
		"no image":              {Insecure: true},
		"no image, secure mode": {},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Render(spec)
			assert.Error(t, err)
			_, err = RenderBuiltIn(spec)
			assert.Error(t, err)
		})
	}
	_, err := RenderPrerequisites(defaultSpec, "")
	assert.ErrorContains(t, err, "no addon name")
}

// An image is a value, never structure: whatever it holds comes back as the container's image and
// adds nothing to the pod.
func TestRenderQuotesTheImage(t *testing.T) {
	hostile := "registry.example.com/m:v1\"\n      hostNetwork: true\n#"
	out, err := Render(Spec{Image: hostile, Insecure: true})
	require.NoError(t, err)
	d := manifesttest.Get[*appsv1.Deployment](t, manifesttest.Decode(t, out), "Deployment/kube-system/metrics-server")
	assert.Equal(t, hostile, d.Spec.Template.Spec.Containers[0].Image)
	assert.False(t, d.Spec.Template.Spec.HostNetwork)
}

// insecure: the API server does not verify metrics-server's certificate, nor metrics-server the
// kubelets'.
func TestRenderInsecure(t *testing.T) {
	builtIn, err := RenderBuiltIn(defaultSpec)
	require.NoError(t, err)
	d := manifesttest.Decode(t, builtIn)
	container := manifesttest.Get[*appsv1.Deployment](t, d, "Deployment/kube-system/metrics-server").Spec.Template.Spec.Containers[0]
	assert.Contains(t, container.Args, "--kubelet-insecure-tls")
	api := manifesttest.Get[*kubemanifest.APIService](t, d, "APIService/v1beta1.metrics.k8s.io")
	assert.True(t, api.Spec.InsecureSkipTLSVerify)
	assert.Empty(t, api.Spec.CABundle)
	assert.Equal(t, "metrics.k8s.io", api.Spec.Group)
	assert.Equal(t, "v1beta1", api.Spec.Version)
	require.NotNil(t, api.Spec.Service)
	assert.Equal(t, Service, api.Spec.Service.Name)
	assert.Equal(t, Namespace, api.Spec.Service.Namespace)
	assert.Empty(t, api.Annotations)
	assert.NotContains(t, d.Keys, "Certificate/kube-system/metrics-server")
}

// The secure mode is kops's: cert-manager issues the serving certificate (Certificate
// metrics-server, from the addon's Issuer, into Secret metrics-server-tls), the pods serve it, and
// cainjector gives the APIService its CA; the kubelets' certificates are verified.
func TestRenderSecure(t *testing.T) {
	secure := Spec{Image: DefaultImage}
	builtIn, err := RenderBuiltIn(secure)
	require.NoError(t, err)
	d := manifesttest.Decode(t, builtIn)

	api := manifesttest.Get[*kubemanifest.APIService](t, d, "APIService/v1beta1.metrics.k8s.io")
	assert.False(t, api.Spec.InsecureSkipTLSVerify)
	assert.Equal(t, map[string]string{"cert-manager.io/inject-ca-from": "kube-system/metrics-server"}, api.Annotations)

	cert := manifesttest.Get[*kubemanifest.Certificate](t, d, "Certificate/kube-system/metrics-server")
	assert.Equal(t, kubemanifest.CertificateSpec{
		SecretName: "metrics-server-tls", Duration: "2160h", RenewBefore: "360h",
		Usages: []string{"server auth"}, DNSNames: []string{"metrics-server.kube-system.svc"},
		IssuerRef: kubemanifest.IssuerReference{Name: AddonName, Kind: "Issuer"},
	}, cert.Spec)
	assert.Equal(t, AddonName, cert.Labels["addon.kops.k8s.io/name"])

	pod := manifesttest.Get[*appsv1.Deployment](t, d, "Deployment/kube-system/metrics-server").Spec.Template.Spec
	c := pod.Containers[0]
	assert.Subset(t, c.Args, []string{"--tls-cert-file=/srv/tls.crt", "--tls-private-key-file=/srv/tls.key"})
	assert.NotContains(t, c.Args, "--kubelet-insecure-tls")
	assert.NotContains(t, c.Args, "--cert-dir=/tmp")
	assert.Contains(t, c.VolumeMounts, corev1.VolumeMount{Name: "certs", MountPath: "/srv"})
	var certs *corev1.Volume
	for i, v := range pod.Volumes {
		if v.Name == "certs" {
			certs = &pod.Volumes[i]
		}
	}
	require.NotNil(t, certs, "the certs volume")
	require.NotNil(t, certs.Secret)
	assert.Equal(t, "metrics-server-tls", certs.Secret.SecretName)

	// The split holds in the secure mode too: the Certificate is kops's, never an operator's.
	pre, err := RenderPrerequisites(secure, AddonName)
	require.NoError(t, err)
	managed, err := Render(secure)
	require.NoError(t, err)
	assert.Equal(t, string(pre)+"---\n"+string(managed), string(builtIn))
	assert.Contains(t, manifesttest.Decode(t, pre).Keys, "Certificate/kube-system/metrics-server")
}

// The pod runs as nobody in particular, cannot gain privileges or write its image, and is the one
// user of its account's token.
func TestRenderConfinesThePod(t *testing.T) {
	out, err := Render(defaultSpec)
	require.NoError(t, err)
	d := manifesttest.Decode(t, out)
	sa := manifesttest.Get[*corev1.ServiceAccount](t, d, "ServiceAccount/kube-system/metrics-server")
	require.NotNil(t, sa.AutomountServiceAccountToken)
	assert.False(t, *sa.AutomountServiceAccountToken, "no other pod of the account gets a token")
	pod := manifesttest.Get[*appsv1.Deployment](t, d, "Deployment/kube-system/metrics-server").Spec.Template.Spec
	require.NotNil(t, pod.AutomountServiceAccountToken)
	assert.True(t, *pod.AutomountServiceAccountToken, "metrics-server talks to the API")
	assert.Equal(t, ServiceAccount, pod.ServiceAccountName)
	assert.False(t, pod.HostNetwork || pod.HostPID || pod.HostIPC)
	require.NotNil(t, pod.SecurityContext)
	assert.True(t, *pod.SecurityContext.RunAsNonRoot)
	assert.NotZero(t, *pod.SecurityContext.RunAsUser)
	assert.NotZero(t, *pod.SecurityContext.RunAsGroup)
	assert.Equal(t, corev1.SeccompProfileTypeRuntimeDefault, pod.SecurityContext.SeccompProfile.Type)
	require.Len(t, pod.Containers, 1)
	assert.Empty(t, pod.InitContainers)
	sc := pod.Containers[0].SecurityContext
	require.NotNil(t, sc)
	assert.False(t, *sc.AllowPrivilegeEscalation)
	assert.True(t, *sc.ReadOnlyRootFilesystem)
	assert.Equal(t, []corev1.Capability{"ALL"}, sc.Capabilities.Drop)
	assert.Empty(t, sc.Capabilities.Add)
	assert.Nil(t, sc.Privileged)
	for _, v := range pod.Volumes {
		assert.NotNil(t, v.EmptyDir, "volume %s: only scratch space, no host paths or secrets (in the insecure mode)", v.Name)
	}
}

// What metrics-server reads, written from its behaviour: the kubelets' resource metrics and the
// pods and nodes it reports on; as an aggregated API server it delegates authentication and
// authorization and reads the API server's client CA. Its roles cover that and nothing more.
func TestRenderGrantsWhatMetricsServerNeeds(t *testing.T) {
	pre, err := RenderPrerequisites(defaultSpec, AddonName)
	require.NoError(t, err)
	d := manifesttest.Decode(t, pre)
	needs := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"nodes/metrics"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"pods", "nodes"}, Verbs: []string{"get", "list", "watch"}},
	}
	role := manifesttest.Get[*rbacv1.ClusterRole](t, d, "ClusterRole/system:metrics-server")
	ok, missing := validation.Covers(role.Rules, needs)
	assert.True(t, ok, "metrics-server cannot do what it needs: %v", missing)
	ok, extra := validation.Covers(needs, role.Rules)
	assert.True(t, ok, "metrics-server is granted more than it needs: %v", extra)
	for _, forbidden := range []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"list"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"update"}},
		{APIGroups: []string{""}, Resources: []string{"nodes/proxy"}, Verbs: []string{"get"}},
	} {
		ok, _ := validation.Covers(role.Rules, []rbacv1.PolicyRule{forbidden})
		assert.False(t, ok, "must not cover %v", forbidden)
	}

	reader := manifesttest.Get[*rbacv1.ClusterRole](t, d, "ClusterRole/system:aggregated-metrics-reader")
	assert.Equal(t, []rbacv1.PolicyRule{{APIGroups: []string{"metrics.k8s.io"}, Resources: []string{"pods", "nodes"}, Verbs: []string{"get", "list", "watch"}}}, reader.Rules)

	subject := []rbacv1.Subject{{Kind: "ServiceAccount", Name: ServiceAccount, Namespace: Namespace}}
	for key, role := range map[string]rbacv1.RoleRef{
		"ClusterRoleBinding/system:metrics-server":                {APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:metrics-server"},
		"ClusterRoleBinding/metrics-server:system:auth-delegator": {APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:auth-delegator"},
	} {
		b := manifesttest.Get[*rbacv1.ClusterRoleBinding](t, d, key)
		assert.Equal(t, role, b.RoleRef, key)
		assert.Equal(t, subject, b.Subjects, key)
	}
	b := manifesttest.Get[*rbacv1.RoleBinding](t, d, "RoleBinding/kube-system/metrics-server-auth-reader")
	assert.Equal(t, rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "extension-apiserver-authentication-reader"}, b.RoleRef)
	assert.Equal(t, subject, b.Subjects)
}

func TestClusterSpec(t *testing.T) {
	on := true
	mirror, err := assets.NewRemapper(&kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"})
	require.NoError(t, err)
	cases := []struct {
		name     string
		config   *kops.MetricsServerConfig
		remapper *assets.Remapper
		want     string
	}{
		{"default image", &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}, nil, DefaultImage},
		{"own image", &kops.MetricsServerConfig{Enabled: &on, Insecure: &on, Image: "example.com/ms:v9"}, nil, "example.com/ms:v9"},
		{"default image remapped", &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}, mirror,
			"registry.example.com/mirror/metrics-server/metrics-server:v" + DefaultVersion},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ClusterSpec(tc.config, tc.remapper)
			require.NoError(t, err)
			assert.Equal(t, Spec{Image: tc.want, Insecure: true}, spec)
		})
	}
	off := false
	for name, insecure := range map[string]*bool{"insecure unset": nil, "insecure false": &off} {
		spec, err := ClusterSpec(&kops.MetricsServerConfig{Enabled: &on, Insecure: insecure}, nil)
		require.NoError(t, err)
		assert.False(t, spec.Insecure, "%s is kops's secure mode", name)
	}
	_, err = ClusterSpec(nil, nil)
	assert.Error(t, err)
}
