package operator

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeAffinityCheck admits exactly the node affinity kops renders (the cluster's
// kubeDNS.affinity), term by term, or none when kops renders none. Schema objects cannot be
// compared with a map literal in CEL, so every field is compared on its own; lists must have the
// rendered length, so nothing can be added.
func nodeAffinityCheck(na *corev1.NodeAffinity) string {
	at := podSpec + `.?affinity.?nodeAffinity`
	if na == nil {
		return `!` + at + `.hasValue()`
	}
	base := podSpec + `.affinity.nodeAffinity`
	required := `!` + base + `.?requiredDuringSchedulingIgnoredDuringExecution.hasValue()`
	if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		terms := base + `.?requiredDuringSchedulingIgnoredDuringExecution.?nodeSelectorTerms.orValue([])`
		conditions := []string{terms + `.size() == ` + strconv.Itoa(len(r.NodeSelectorTerms))}
		for i, term := range r.NodeSelectorTerms {
			conditions = append(conditions, nodeSelectorTermCheck(terms+`[`+strconv.Itoa(i)+`]`, term))
		}
		required = allOf(conditions...)
	}
	preferred := base + `.?preferredDuringSchedulingIgnoredDuringExecution.orValue([])`
	conditions := []string{at + `.hasValue()`, required,
		preferred + `.size() == ` + strconv.Itoa(len(na.PreferredDuringSchedulingIgnoredDuringExecution))}
	for i, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		item := preferred + `[` + strconv.Itoa(i) + `]`
		conditions = append(conditions, item+`.weight == `+celInt(int64(p.Weight)),
			nodeSelectorTermCheck(item+`.preference`, p.Preference))
	}
	return "(" + allOf(conditions...) + ")"
}

func nodeSelectorTermCheck(term string, t corev1.NodeSelectorTerm) string {
	return allOf(requirementsCheck(term+`.?matchExpressions.orValue([])`, t.MatchExpressions),
		requirementsCheck(term+`.?matchFields.orValue([])`, t.MatchFields))
}

func requirementsCheck(list string, reqs []corev1.NodeSelectorRequirement) string {
	conditions := []string{list + `.size() == ` + strconv.Itoa(len(reqs))}
	for i, r := range reqs {
		item := list + `[` + strconv.Itoa(i) + `]`
		values := r.Values
		if values == nil {
			values = []string{}
		}
		conditions = append(conditions, item+`.key == `+celString(r.Key),
			item+`.operator == `+celString(string(r.Operator)),
			item+`.?values.orValue([]) == `+celStrings(values))
	}
	return allOf(conditions...)
}

// podAffinityCheck admits exactly the pod affinity (or anti-affinity: field names it) kops
// renders, or none. Which pods CoreDNS lands next to is placement the cluster admin chose; the
// operator must not move it next to (or away from) other workloads.
func podAffinityCheck(field string, present bool, terms []corev1.PodAffinityTerm, weighted []corev1.WeightedPodAffinityTerm) string {
	at := podSpec + `.?affinity.?` + field
	if !present {
		return `!` + at + `.hasValue()`
	}
	base := podSpec + `.affinity.` + field
	required := base + `.?requiredDuringSchedulingIgnoredDuringExecution.orValue([])`
	preferred := base + `.?preferredDuringSchedulingIgnoredDuringExecution.orValue([])`
	conditions := []string{at + `.hasValue()`,
		required + `.size() == ` + strconv.Itoa(len(terms)),
		preferred + `.size() == ` + strconv.Itoa(len(weighted))}
	for i, term := range terms {
		conditions = append(conditions, podAffinityTermCheck(required+`[`+strconv.Itoa(i)+`]`, term))
	}
	for i, w := range weighted {
		item := preferred + `[` + strconv.Itoa(i) + `]`
		conditions = append(conditions, item+`.weight == `+celInt(int64(w.Weight)),
			podAffinityTermCheck(item+`.podAffinityTerm`, w.PodAffinityTerm))
	}
	return "(" + allOf(conditions...) + ")"
}

func podAffinityTermCheck(term string, t corev1.PodAffinityTerm) string {
	namespaces := t.Namespaces
	if namespaces == nil {
		namespaces = []string{}
	}
	return allOf(term+`.topologyKey == `+celString(t.TopologyKey),
		term+`.?namespaces.orValue([]) == `+celStrings(namespaces),
		labelSelectorCheck(term+`.?labelSelector`, t.LabelSelector),
		labelSelectorCheck(term+`.?namespaceSelector`, t.NamespaceSelector),
		term+`.?matchLabelKeys.orValue([]).size() == 0`,
		term+`.?mismatchLabelKeys.orValue([]).size() == 0`)
}

// labelSelectorCheck compares the optional selector at (an optional-typed CEL expression) with s.
func labelSelectorCheck(at string, s *metav1.LabelSelector) string {
	if s == nil {
		return `!` + at + `.hasValue()`
	}
	matchLabels := s.MatchLabels
	if matchLabels == nil {
		matchLabels = map[string]string{}
	}
	expressions := at + `.?matchExpressions.orValue([])`
	conditions := []string{at + `.hasValue()`,
		at + `.?matchLabels.orValue({}) == ` + celStringMap(matchLabels),
		expressions + `.size() == ` + strconv.Itoa(len(s.MatchExpressions))}
	for i, r := range s.MatchExpressions {
		item := expressions + `[` + strconv.Itoa(i) + `]`
		values := r.Values
		if values == nil {
			values = []string{}
		}
		conditions = append(conditions, item+`.key == `+celString(r.Key),
			item+`.operator == `+celString(string(r.Operator)),
			item+`.?values.orValue([]) == `+celStrings(values))
	}
	return "(" + allOf(conditions...) + ")"
}
