package operator

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
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
