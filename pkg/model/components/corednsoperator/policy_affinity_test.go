package corednsoperator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/apis/kops"
)

// clusterAffinity is a kubeDNS.affinity with a term of each kind the policy compares.
func clusterAffinity() *corev1.Affinity {
	return &corev1.Affinity{
		NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{
			Weight:     50,
			Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "example.com/dns", Operator: corev1.NodeSelectorOpIn, Values: []string{"yes"}}}},
		}}},
		PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 100,
			PodAffinityTerm: corev1.PodAffinityTerm{
				TopologyKey:   "kubernetes.io/hostname",
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"k8s-app": "kube-dns"}},
			},
		}}},
	}
}

// The cluster's affinity is admitted exactly; whatever the operator adds or changes in it (to
// move CoreDNS onto the control plane, next to or away from other workloads) is refused. A
// cluster that sets no affinity admits none.
func TestPolicyAdmitsOnlyTheClusterAffinity(t *testing.T) {
	withAffinity := renderedScope(t, kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{Affinity: clusterAffinity()}})
	plain := renderedScope(t, kops.ClusterSpec{})
	require.Empty(t, denials(t, withAffinity, deploymentRequest(withAffinity.Deployment)), "the rendered affinity is admitted")

	podAffinity := &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey: "kubernetes.io/hostname", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "victim"}},
	}}}
	cases := []struct {
		name   string
		scope  *Scope
		change func(*corev1.Affinity)
	}{
		{"a required node term", withAffinity, func(a *corev1.Affinity) {
			a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.NodeSelectorOpExists}},
			}}}
		}},
		{"another preference value", withAffinity, func(a *corev1.Affinity) {
			a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Preference.MatchExpressions[0].Values = []string{"control-plane"}
		}},
		{"another weight", withAffinity, func(a *corev1.Affinity) {
			a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight = 100
		}},
		{"a second preference", withAffinity, func(a *corev1.Affinity) {
			p := a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
			a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(p, p[0])
		}},
		{"pod affinity to a victim", withAffinity, func(a *corev1.Affinity) { a.PodAffinity = podAffinity }},
		{"anti-affinity by zone", withAffinity, func(a *corev1.Affinity) {
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.TopologyKey = "topology.kubernetes.io/zone"
		}},
		{"anti-affinity to other pods", withAffinity, func(a *corev1.Affinity) {
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector.MatchLabels = map[string]string{"app": "other"}
		}},
		{"anti-affinity across namespaces", withAffinity, func(a *corev1.Affinity) {
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.NamespaceSelector = &metav1.LabelSelector{}
		}},
		{"required anti-affinity", withAffinity, func(a *corev1.Affinity) {
			a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = []corev1.PodAffinityTerm{a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm}
		}},
		{"pod affinity where the cluster sets none", plain, func(a *corev1.Affinity) { a.PodAffinity = podAffinity }},
		{"anti-affinity where the cluster sets none", plain, func(a *corev1.Affinity) { a.PodAntiAffinity = &corev1.PodAntiAffinity{} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.scope.Deployment.DeepCopy()
			if d.Spec.Template.Spec.Affinity == nil {
				d.Spec.Template.Spec.Affinity = &corev1.Affinity{}
			}
			tc.change(d.Spec.Template.Spec.Affinity)
			denied := denials(t, tc.scope, deploymentRequest(d))
			require.NotEmpty(t, denied, "admitted")
			assert.True(t, containsAny(denied, "may not choose its nodes"), "denied for another reason: %v", denied)
		})
	}
}
