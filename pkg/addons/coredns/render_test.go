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

package coredns

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest/manifesttest"
)

func qty(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

// renderCluster completes spec the way `kops update cluster` does and renders the addon.
func renderCluster(t *testing.T, spec kops.ClusterSpec) (*kops.Cluster, Spec, []byte) {
	t.Helper()
	cluster := kops.CompleteCluster(&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "dns.example.com"}, Spec: spec}, "memfs://test")
	remapper, err := assets.NewRemapper(cluster.Spec.Assets)
	require.NoError(t, err)
	s, err := ClusterSpec(cluster.Spec.KubeDNS, remapper)
	require.NoError(t, err)
	f, err := ClusterFacts(cluster.Spec.KubeDNS, remapper)
	require.NoError(t, err)
	out, err := Render(s, f)
	require.NoError(t, err)
	return cluster, s, out
}

var wantOrder = []string{
	"ServiceAccount/kube-system/coredns",
	"ClusterRole/system:coredns",
	"ClusterRoleBinding/system:coredns",
	"ConfigMap/kube-system/coredns",
	"Deployment/kube-system/coredns",
	"Service/kube-system/kube-dns",
	"PodDisruptionBudget/kube-system/kube-dns",
	"ServiceAccount/kube-system/coredns-autoscaler",
	"ClusterRole/coredns-autoscaler",
	"ClusterRoleBinding/coredns-autoscaler",
	"Role/kube-system/coredns-autoscaler",
	"RoleBinding/kube-system/coredns-autoscaler",
	"ConfigMap/kube-system/coredns-autoscaler",
	"Deployment/kube-system/coredns-autoscaler",
}

func TestRenderCoreDNS(t *testing.T) {
	tolerations := []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule}}
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.NodeSelectorOpDoesNotExist}},
		}}},
	}}
	tests := []struct {
		name  string
		spec  kops.ClusterSpec
		check func(t *testing.T, m *manifesttest.Decoded)
	}{
		{
			name: "defaults",
			check: func(t *testing.T, m *manifesttest.Decoded) {
				assert.Equal(t, "100.64.0.10", manifesttest.Get[*corev1.Service](t, m, "Service/kube-system/kube-dns").Spec.ClusterIP)
				c := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns").Spec.Template.Spec.Containers[0]
				assert.Equal(t, DefaultImage, c.Image)
				assert.Equal(t, "100m", c.Resources.Requests.Cpu().String())
				assert.Equal(t, "70Mi", c.Resources.Requests.Memory().String())
				assert.Equal(t, "170Mi", c.Resources.Limits.Memory().String())
				assert.NotContains(t, c.Resources.Limits, corev1.ResourceCPU, "no CPU limit: throttling DNS slows every pod")
				pod := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns").Spec.Template
				assert.Nil(t, pod.Spec.Affinity)
				assert.Equal(t, map[string]string{CorefileChecksumAnnotation: CorefileChecksum(Corefile(nil))}, pod.Annotations,
					"only the Corefile's checksum, which rolls CoreDNS out when the Corefile changes")
				assert.Equal(t, []corev1.Toleration{{Key: "CriticalAddonsOnly", Operator: corev1.TolerationOpExists}}, pod.Spec.Tolerations)
				autoscaler := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns-autoscaler").Spec.Template.Spec.Containers[0]
				assert.Equal(t, DefaultAutoscalerImage, autoscaler.Image)
			},
		},
		{
			name: "custom DNS settings, image and registry mirror",
			spec: kops.ClusterSpec{
				KubeDNS: &kops.KubeDNSConfig{
					Domain:              "corp.internal",
					UpstreamNameservers: []string{"10.0.0.2", "10.0.0.3"},
					StubDomains:         map[string][]string{"z.example.com": {"10.9.0.1"}, "a.example.com": {"10.8.0.1", "10.8.0.2"}},
					CoreDNSImage:        "docker.io/coredns/coredns:1.13.1",
					CPURequest:          qty("250m"),
					MemoryRequest:       qty("128Mi"),
					MemoryLimit:         qty("256Mi"),
					Tolerations:         tolerations,
					Affinity:            affinity,
					PodAnnotations:      map[string]string{"example.com/note": "yes: no\nsecond line", "prometheus.io/scrape": "true"},
				},
				Assets: &kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"},
			},
			check: func(t *testing.T, m *manifesttest.Decoded) {
				d := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns")
				c := d.Spec.Template.Spec.Containers[0]
				assert.Equal(t, "registry.example.com/mirror/coredns/coredns:1.13.1", c.Image)
				assert.Equal(t, "250m", c.Resources.Requests.Cpu().String())
				assert.Equal(t, "128Mi", c.Resources.Requests.Memory().String())
				assert.Equal(t, "256Mi", c.Resources.Limits.Memory().String())
				assert.Equal(t, append([]corev1.Toleration{{Key: "CriticalAddonsOnly", Operator: corev1.TolerationOpExists}}, tolerations...), d.Spec.Template.Spec.Tolerations)
				assert.Equal(t, affinity, d.Spec.Template.Spec.Affinity)
				corefile := manifesttest.Get[*corev1.ConfigMap](t, m, "ConfigMap/kube-system/coredns").Data["Corefile"]
				assert.Equal(t, map[string]string{
					"example.com/note": "yes: no\nsecond line", "prometheus.io/scrape": "true",
					CorefileChecksumAnnotation: CorefileChecksum(corefile),
				}, d.Spec.Template.Annotations, "the cluster's pod annotations beside the checksum of the Corefile rendered")
				autoscaler := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns-autoscaler").Spec.Template.Spec.Containers[0]
				assert.Equal(t, "registry.example.com/mirror/cpa/cluster-proportional-autoscaler:v1.9.0", autoscaler.Image)
				assert.Contains(t, corefile, "kubernetes corp.internal in-addr.arpa ip6.arpa {")
				assert.Contains(t, corefile, "forward . 10.0.0.2 10.0.0.3 {")
				assert.Less(t, strings.Index(corefile, "a.example.com:53"), strings.Index(corefile, "z.example.com:53"))
			},
		},
		{
			name: "container proxy",
			spec: kops.ClusterSpec{Assets: &kops.AssetsSpec{ContainerProxy: "proxy.example.com"}},
			check: func(t *testing.T, m *manifesttest.Decoded) {
				c := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns").Spec.Template.Spec.Containers[0]
				assert.Equal(t, "proxy.example.com/registry.k8s.io/coredns/coredns:v1.14.2", c.Image)
			},
		},
		{
			name: "externalCoreFile",
			spec: kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{
				UpstreamNameservers: []string{"10.0.0.2"},
				ExternalCoreFile:    ".:53 {\n  errors\n  forward . 8.8.8.8 # \"google\": yes\n}\n\n",
			}},
			check: func(t *testing.T, m *manifesttest.Decoded) {
				corefile := manifesttest.Get[*corev1.ConfigMap](t, m, "ConfigMap/kube-system/coredns").Data["Corefile"]
				assert.Equal(t, ".:53 {\n  errors\n  forward . 8.8.8.8 # \"google\": yes\n}\n\n", corefile)
			},
		},
		{
			name: "IPv6",
			spec: kops.ClusterSpec{
				NonMasqueradeCIDR: "::/0",
				KubeDNS:           &kops.KubeDNSConfig{UpstreamNameservers: []string{"fd00:ec2::253"}},
			},
			check: func(t *testing.T, m *manifesttest.Decoded) {
				assert.Equal(t, "fd00:5e4f:ce::a", manifesttest.Get[*corev1.Service](t, m, "Service/kube-system/kube-dns").Spec.ClusterIP)
				corefile := manifesttest.Get[*corev1.ConfigMap](t, m, "ConfigMap/kube-system/coredns").Data["Corefile"]
				assert.Contains(t, corefile, "forward . fd00:ec2::253 {")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cluster, data, out := renderCluster(t, tt.spec)
			m := manifesttest.Decode(t, out)
			assert.Equal(t, wantOrder, m.Keys)
			assert.Equal(t, Corefile(cluster.Spec.KubeDNS), manifesttest.Get[*corev1.ConfigMap](t, m, "ConfigMap/kube-system/coredns").Data["Corefile"])
			assert.Equal(t, data.Image, manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns").Spec.Template.Spec.Containers[0].Image)
			checkCommon(t, m)
			tt.check(t, m)
		})
	}
}

// checkCommon asserts what every rendering shares: labels, namespaces, hardening, wiring.
func checkCommon(t *testing.T, m *manifesttest.Decoded) {
	for _, key := range m.Keys {
		obj := m.Objects[key]
		app := "kube-dns"
		if strings.Contains(obj.GetName(), "autoscaler") {
			app = "coredns-autoscaler"
		}
		assert.Equal(t, app, obj.GetLabels()["k8s-app"], key)
		assert.Equal(t, AddonName, obj.GetLabels()["addon.kops.k8s.io/name"], key)
		assert.Equal(t, "kops", obj.GetLabels()["app.kubernetes.io/managed-by"], key)
		switch obj.(type) {
		case *rbacv1.ClusterRole, *rbacv1.ClusterRoleBinding:
			assert.Empty(t, obj.GetNamespace(), key)
		default:
			assert.Equal(t, "kube-system", obj.GetNamespace(), key)
		}
	}

	for _, d := range manifesttest.All[*appsv1.Deployment](m) {
		pod := d.Spec.Template.Spec
		assert.Equal(t, d.Spec.Selector.MatchLabels, map[string]string{"k8s-app": d.Labels["k8s-app"]}, d.Name)
		assert.Equal(t, d.Labels["k8s-app"], d.Spec.Template.Labels["k8s-app"], d.Name)
		assert.Equal(t, "system-cluster-critical", pod.PriorityClassName, d.Name)
		assert.Equal(t, d.Name, pod.ServiceAccountName, d.Name)
		assert.Equal(t, ptrTrue, pod.AutomountServiceAccountToken, d.Name)
		require.NotNil(t, pod.SecurityContext, d.Name)
		assert.Equal(t, ptrTrue, pod.SecurityContext.RunAsNonRoot, d.Name)
		require.NotNil(t, pod.SecurityContext.RunAsUser, d.Name)
		assert.NotZero(t, *pod.SecurityContext.RunAsUser, d.Name)
		assert.Equal(t, &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}, pod.SecurityContext.SeccompProfile, d.Name)
		assert.Contains(t, pod.Tolerations, corev1.Toleration{Key: "CriticalAddonsOnly", Operator: corev1.TolerationOpExists}, d.Name)
		for _, c := range pod.Containers {
			sc := c.SecurityContext
			require.NotNil(t, sc, c.Name)
			assert.Equal(t, ptrFalse, sc.AllowPrivilegeEscalation, c.Name)
			assert.Equal(t, ptrTrue, sc.ReadOnlyRootFilesystem, c.Name)
			require.NotNil(t, sc.Capabilities, c.Name)
			assert.Equal(t, []corev1.Capability{"ALL"}, sc.Capabilities.Drop, c.Name)
		}
	}

	dns := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns")
	assert.Nil(t, dns.Spec.Replicas, "the autoscaler owns the replica count")
	pod := dns.Spec.Template.Spec
	assert.Equal(t, corev1.DNSDefault, pod.DNSPolicy)
	c := pod.Containers[0]
	assert.Equal(t, []string{"-conf", "/etc/coredns/Corefile"}, c.Args)
	assert.Equal(t, []corev1.Capability{"NET_BIND_SERVICE"}, c.SecurityContext.Capabilities.Add)
	assert.Equal(t, "/ready", c.ReadinessProbe.HTTPGet.Path)
	assert.Equal(t, int32(8181), c.ReadinessProbe.HTTPGet.Port.IntVal)
	assert.Equal(t, "/health", c.LivenessProbe.HTTPGet.Path)
	assert.Equal(t, int32(8080), c.LivenessProbe.HTTPGet.Port.IntVal)
	assert.Equal(t, []corev1.ContainerPort{
		{Name: "dns", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
		{Name: "dns-tcp", ContainerPort: 53, Protocol: corev1.ProtocolTCP},
		{Name: "metrics", ContainerPort: 9153, Protocol: corev1.ProtocolTCP},
	}, c.Ports)
	require.Len(t, pod.Volumes, 1)
	assert.Equal(t, "coredns", pod.Volumes[0].ConfigMap.Name)
	var topologyKeys []string
	for _, tsc := range pod.TopologySpreadConstraints {
		topologyKeys = append(topologyKeys, tsc.TopologyKey)
		assert.Equal(t, corev1.ScheduleAnyway, tsc.WhenUnsatisfiable)
		assert.Equal(t, map[string]string{"k8s-app": "kube-dns"}, tsc.LabelSelector.MatchLabels)
	}
	assert.Equal(t, []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}, topologyKeys)

	svc := manifesttest.Get[*corev1.Service](t, m, "Service/kube-system/kube-dns")
	assert.Equal(t, map[string]string{"k8s-app": "kube-dns"}, svc.Spec.Selector)
	assert.Equal(t, "9153", svc.Annotations["prometheus.io/port"])
	assert.Equal(t, "true", svc.Annotations["prometheus.io/scrape"])
	require.Len(t, svc.Spec.Ports, 3)

	pdb := manifesttest.Get[*policyv1.PodDisruptionBudget](t, m, "PodDisruptionBudget/kube-system/kube-dns")
	assert.Equal(t, int32(1), pdb.Spec.MaxUnavailable.IntVal)
	assert.Equal(t, map[string]string{"k8s-app": "kube-dns"}, pdb.Spec.Selector.MatchLabels)

	autoscaler := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns-autoscaler").Spec.Template.Spec.Containers[0]
	assert.Contains(t, autoscaler.Command, "--configmap=coredns-autoscaler")
	assert.Contains(t, autoscaler.Command, "--target=deployment/coredns")
	for _, arg := range append(autoscaler.Command, autoscaler.Args...) {
		assert.NotContains(t, arg, "--default-params", "the ConfigMap is pre-created")
	}
	assert.Contains(t, manifesttest.Get[*corev1.ConfigMap](t, m, "ConfigMap/kube-system/coredns-autoscaler").Data, "linear")
}

var (
	ptrTrue  = func() *bool { b := true; return &b }()
	ptrFalse = func() *bool { b := false; return &b }()
)

func TestRenderCoreDNSIsDeterministic(t *testing.T) {
	spec := kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{
		StubDomains:    map[string][]string{"a": {"1.1.1.1"}, "b": {"2.2.2.2"}, "c": {"3.3.3.3"}},
		PodAnnotations: map[string]string{"x": "1", "y": "2", "z": "3"},
	}}
	_, _, first := renderCluster(t, spec)
	for i := 0; i < 10; i++ {
		_, _, again := renderCluster(t, spec)
		require.Equal(t, string(first), string(again))
	}
	text := string(first)
	assert.True(t, strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\n\n"), "exactly one trailing newline")
	assert.NotContains(t, text, "<no value>")
	for i, line := range strings.Split(text, "\n") {
		assert.Equal(t, strings.TrimRight(line, " \t"), line, "trailing whitespace on line %d", i+1)
	}
}

// TestImagesArePinned checks every image, both in the decoded objects and anywhere in the text.
func TestImagesArePinned(t *testing.T) {
	pinned := func(t *testing.T, image string) {
		name, _, _ := strings.Cut(image, "@")
		i := strings.LastIndex(name, ":")
		require.Greater(t, i, strings.LastIndex(name, "/"), "image %q has no tag", image)
		assert.NotEqual(t, "latest", name[i+1:], "image %q", image)
	}
	for _, spec := range []kops.ClusterSpec{{}, {Assets: &kops.AssetsSpec{ContainerProxy: "proxy.example.com:5000"}}} {
		_, _, out := renderCluster(t, spec)
		for _, d := range manifesttest.All[*appsv1.Deployment](manifesttest.Decode(t, out)) {
			for _, c := range append(d.Spec.Template.Spec.InitContainers, d.Spec.Template.Spec.Containers...) {
				pinned(t, c.Image)
			}
		}
		lines := regexp.MustCompile(`(?m)^\s*(?:-\s*)?image:\s*"?([^"\s]+)"?\s*$`).FindAllStringSubmatch(string(out), -1)
		require.Len(t, lines, 2)
		for _, l := range lines {
			pinned(t, l[1])
		}
	}
}

// TestAutoscalerRBACIsLeastPrivilege: no wildcards anywhere, no create or delete, and every rule
// that can change an object is limited to named objects.
func TestAutoscalerRBACIsLeastPrivilege(t *testing.T) {
	_, _, out := renderCluster(t, kops.ClusterSpec{})
	m := manifesttest.Decode(t, out)
	rules := map[string][]rbacv1.PolicyRule{
		"ClusterRole/system:coredns":          manifesttest.Get[*rbacv1.ClusterRole](t, m, "ClusterRole/system:coredns").Rules,
		"ClusterRole/coredns-autoscaler":      manifesttest.Get[*rbacv1.ClusterRole](t, m, "ClusterRole/coredns-autoscaler").Rules,
		"Role/kube-system/coredns-autoscaler": manifesttest.Get[*rbacv1.Role](t, m, "Role/kube-system/coredns-autoscaler").Rules,
	}
	for key, rs := range rules {
		for _, r := range rs {
			for _, field := range [][]string{r.APIGroups, r.Resources, r.Verbs, r.ResourceNames, r.NonResourceURLs} {
				assert.NotContains(t, field, "*", key)
			}
			for _, v := range r.Verbs {
				assert.NotContains(t, []string{"create", "delete", "deletecollection", "escalate", "bind", "impersonate"}, v, key)
				if v == "update" || v == "patch" {
					assert.NotEmpty(t, r.ResourceNames, "%s: %s on %v without resourceNames", key, v, r.Resources)
				}
			}
		}
	}
	cluster := manifesttest.Get[*rbacv1.ClusterRole](t, m, "ClusterRole/coredns-autoscaler").Rules
	assert.Equal(t, []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"list", "watch"}}}, cluster)
	for _, r := range manifesttest.Get[*rbacv1.Role](t, m, "Role/kube-system/coredns-autoscaler").Rules {
		assert.NotEmpty(t, r.ResourceNames, "every namespaced rule names its objects: %v", r)
	}
	binding := manifesttest.Get[*rbacv1.RoleBinding](t, m, "RoleBinding/kube-system/coredns-autoscaler")
	assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: "coredns-autoscaler", Namespace: "kube-system"}}, binding.Subjects)
}

func TestRenderRejectsIncompleteInput(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(s *Spec, f *Facts)
		want   string
	}{
		{"bad dnsIP", func(s *Spec, f *Facts) { s.DNSIP = "" }, "dnsIP"},
		{"dnsIP with a prefix", func(s *Spec, f *Facts) { s.DNSIP = "100.64.0.10/32" }, "dnsIP"},
		{"no image", func(s *Spec, f *Facts) { s.Image = "" }, "image is empty"},
		{"no Corefile", func(s *Spec, f *Facts) { s.Corefile = "" }, "corefile is empty"},
		{"no checksum", func(s *Spec, f *Facts) { s.CorefileChecksum = "" }, "spec.corefileChecksum is missing"},
		{"Corefile changed without its checksum", func(s *Spec, f *Facts) { s.Corefile += "# changed\n" }, "is not the SHA-256 of spec.corefile"},
		{"checksum in upper case", func(s *Spec, f *Facts) { s.CorefileChecksum = strings.ToUpper(s.CorefileChecksum) }, "is not the SHA-256"},
		{"pod annotations set the checksum", func(s *Spec, f *Facts) {
			f.PodAnnotations = map[string]string{CorefileChecksumAnnotation: s.CorefileChecksum}
		}, "podAnnotations sets " + CorefileChecksumAnnotation},
		{"no autoscaler image", func(s *Spec, f *Facts) { f.AutoscalerImage = "" }, "autoscaler image"},
		{"missing quantity", func(s *Spec, f *Facts) { f.MemoryLimit = "" }, "memoryLimit"},
		{"bad quantity", func(s *Spec, f *Facts) { f.CPURequest = "lots" }, "cpuRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := minimalSpec()
			f := DefaultFacts()
			_, err := Render(s, f)
			require.NoError(t, err, "the unmodified input renders")
			tt.mutate(&s, &f)
			_, err = Render(s, f)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// TestRenderCanonicalisesQuantities: "0.1" and "100m" are one quantity and render the same.
func TestRenderCanonicalisesQuantities(t *testing.T) {
	s := minimalSpec()
	f := DefaultFacts()
	want, err := Render(s, f)
	require.NoError(t, err)
	f.CPURequest = "0.1"
	got, err := Render(s, f)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

func TestClusterSpecAndFactsNeedACompletedCluster(t *testing.T) {
	c := kops.CompleteCluster(&kops.Cluster{Spec: kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{CoreDNSImage: "CoreDNS:Latest"}}}, "")
	_, err := ClusterSpec(c.Spec.KubeDNS, nil)
	assert.ErrorContains(t, err, "spec.kubeDNS.coreDNSImage")
	_, err = ClusterSpec(nil, nil)
	assert.ErrorContains(t, err, "kops.CompleteCluster")
	_, err = ClusterFacts(nil, nil)
	assert.ErrorContains(t, err, "kops.CompleteCluster")
	c.Spec.KubeDNS.MemoryLimit = nil
	_, err = ClusterFacts(c.Spec.KubeDNS, nil)
	assert.ErrorContains(t, err, "memoryLimit")
}

// TestDefaultFactsAreADefaultCluster: the operator, told nothing else, renders what kops renders
// for a cluster that sets nothing in spec.kubeDNS.
func TestDefaultFactsAreADefaultCluster(t *testing.T) {
	c := kops.CompleteCluster(&kops.Cluster{}, "")
	f, err := ClusterFacts(c.Spec.KubeDNS, nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultFacts(), f)
}

// minimalSpec is the least spec Render accepts.
func minimalSpec() Spec {
	const corefile = ".:53 {}\n"
	return Spec{Image: DefaultImage, DNSIP: "100.64.0.10", Corefile: corefile, CorefileChecksum: CorefileChecksum(corefile)}
}

// The checksum is the SHA-256 of the Corefile's bytes, as `sha256sum` prints it, so an admin who
// edits spec.corefile by hand can compute the new one (the values are from sha256sum).
func TestCorefileChecksum(t *testing.T) {
	assert.Equal(t, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", CorefileChecksum(""))
	assert.Equal(t, "8d74ac96fdf47432ae8eb0813ea7e80e823bf32c0899931b036dd531f487d5d8", CorefileChecksum(".:53 {}\n"))
	assert.Regexp(t, CorefileChecksumPattern, CorefileChecksum(Corefile(nil)))
}

// A change of the Corefile changes the pod template, and nothing else does: the cluster's Corefile
// settings roll CoreDNS out, the same settings rendered again do not.
func TestCorefileChangeChangesThePodTemplate(t *testing.T) {
	template := func(dns *kops.KubeDNSConfig) map[string]string {
		spec, err := ClusterSpec(dns, nil)
		require.NoError(t, err)
		manifest, err := Render(spec, DefaultFacts())
		require.NoError(t, err)
		return manifesttest.Get[*appsv1.Deployment](t, manifesttest.Decode(t, manifest), "Deployment/kube-system/coredns").Spec.Template.Annotations
	}
	base := &kops.KubeDNSConfig{ServerIP: "100.64.0.10"}
	stub := &kops.KubeDNSConfig{ServerIP: "100.64.0.10", StubDomains: map[string][]string{"extra.test": {"10.0.0.53"}}}
	assert.Equal(t, template(base), template(base))
	assert.NotEqual(t, template(base), template(stub))
	assert.Equal(t, CorefileChecksum(Corefile(stub)), template(stub)[CorefileChecksumAnnotation])
}
