package operator

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The allow-list for the managed objects other than the Deployment: a Service, a ServiceAccount,
// and the events the operator records.

func (s *Scope) serviceChecks() []check {
	svc := s.Service.Spec
	ip := celString(svc.ClusterIP)
	deny := func(expression, message string) check {
		return check{"", "services", "", expression, "Service " + s.Service.Name + " " + message}
	}
	// A Service rendered with its cluster IP (CoreDNS's kubeDNS.serverIP) keeps exactly it; one
	// rendered without gets whatever address the API server allocates, but never a headless one.
	address := deny(allOf(`object.spec.?type.orValue("ClusterIP") == "ClusterIP"`,
		`object.spec.?clusterIP.orValue("") == `+ip,
		`object.spec.?clusterIPs.orValue([`+ip+`]) == [`+ip+`]`),
		"must be of type ClusterIP with clusterIP "+svc.ClusterIP+" (kubeDNS.serverIP)")
	if svc.ClusterIP == "" {
		address = deny(allOf(`object.spec.?type.orValue("ClusterIP") == "ClusterIP"`,
			`object.spec.?clusterIP.orValue("") != "None"`),
			"must be of type ClusterIP, not headless")
	}
	var ports []string
	var described []string
	for _, p := range svc.Ports {
		protocol := p.Protocol
		if protocol == "" {
			protocol = corev1.ProtocolTCP
		}
		target := p.TargetPort
		if target.Type == intstr.Int && target.IntVal == 0 {
			target = intstr.FromInt32(p.Port)
		}
		targetLiteral := celInt(int64(target.IntVal))
		if target.Type == intstr.String {
			targetLiteral = celString(target.StrVal)
		}
		ports = append(ports, allOf(`p.port == `+celInt(int64(p.Port)),
			`p.?protocol.orValue("TCP") == `+celString(string(protocol)),
			`p.?targetPort.orValue(`+celInt(int64(p.Port))+`) == `+targetLiteral))
		described = append(described, celInt(int64(p.Port))+"/"+string(protocol))
	}
	sort.Strings(described)
	return []check{
		s.onlyName("", "services", "Service", s.Service.Name),
		address,
		deny(`object.spec.?selector.orValue({}) == `+celStringMap(svc.Selector),
			"must select exactly "+celStringMap(svc.Selector)),
		deny(allOf(`object.spec.ports.size() == `+celInt(int64(len(svc.Ports))),
			`object.spec.ports.all(p, `+anyOf(ports)+`)`),
			"must have exactly the ports "+celStrings(described)),
		deny(allOf(`object.spec.?externalIPs.orValue([]).size() == 0`,
			`!object.spec.?externalName.hasValue()`,
			`!object.spec.?loadBalancerIP.hasValue()`),
			"may not have externalIPs, an externalName or a loadBalancerIP"),
	}
}

func (s *Scope) serviceAccountChecks() []check {
	name, subject := s.ServiceAccount.Name, s.Descriptor.Subject
	automount := `!object.?automountServiceAccountToken.hasValue()`
	if a := s.ServiceAccount.AutomountServiceAccountToken; a != nil {
		automount = `object.?automountServiceAccountToken.orValue(` + boolLiteral(!*a) + `) == ` + boolLiteral(*a)
	}
	same := func(field string) string {
		return `has(object.` + field + `) == has(oldObject.` + field + `) && (!has(object.` + field + `) || object.` + field + ` == oldObject.` + field + `)`
	}
	return []check{
		s.onlyName("", "serviceaccounts", "ServiceAccount", name),
		{"", "serviceaccounts", "", `request.operation != "CREATE" || (` + allOf(automount,
			`object.?secrets.orValue([]).size() == 0`, `object.?imagePullSecrets.orValue([]).size() == 0`) + `)`,
			"the " + subject + " operator may create ServiceAccount " + name + " only as kops renders it: no secrets, imagePullSecrets or other automountServiceAccountToken"},
		{"", "serviceaccounts", "", `request.operation != "UPDATE" || (` + allOf(same("automountServiceAccountToken"),
			same("secrets"), same("imagePullSecrets")) + `)`,
			"the " + subject + " operator may not change the automountServiceAccountToken, secrets or imagePullSecrets of ServiceAccount " + name},
	}
}

// eventChecks keep the operator from speaking for others in kube-system: it may only create events
// it reports itself, about the objects it manages, and may only patch its own. Its own namespace
// holds nothing but its lease, so its leader-election events there are left alone.
func (s *Scope) eventChecks() []check {
	d := s.Descriptor
	pairs := []string{celStrings([]string{d.CRD.Kind, d.Instructions})}
	for _, m := range d.Managed {
		pairs = append(pairs, celStrings([]string{m.Kind, m.Name}))
	}
	about := "[" + strings.Join(pairs, ", ") + "]"
	me := celString(d.EventReporter())
	mine := func(obj string) (core, events string) {
		core = allOf(`[`+obj+`.?source.?component.orValue(""), `+obj+`.?reportingComponent.orValue("")].all(x, x in ["", `+me+`])`,
			`[`+obj+`.?source.?component.orValue(""), `+obj+`.?reportingComponent.orValue("")].exists(x, x == `+me+`)`)
		events = allOf(obj+`.?reportingController.orValue("") == `+me,
			obj+`.?deprecatedSource.?component.orValue("") in ["", `+me+`]`)
		return core, events
	}
	coreNew, eventsNew := mine("object")
	coreOld, eventsOld := mine("oldObject")
	whose := "the " + d.Subject + " operator may only record events in " + d.WatchNamespace + " as " + d.EventReporter() + " about the objects it manages, and only change its own"
	return []check{
		{"", "events", d.WatchNamespace, allOf(coreNew,
			`[object.involvedObject.?kind.orValue(""), object.involvedObject.?name.orValue("")] in `+about,
			`!object.?related.hasValue()`,
			`(request.operation != "UPDATE" || `+coreOld+`)`), whose},
		{"events.k8s.io", "events", d.WatchNamespace, allOf(eventsNew,
			`[object.?regarding.?kind.orValue(""), object.?regarding.?name.orValue("")] in `+about,
			`!object.?related.hasValue()`,
			`(request.operation != "UPDATE" || `+eventsOld+`)`), whose},
	}
}
