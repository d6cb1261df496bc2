package operator

import (
	corev1 "k8s.io/api/core/v1"
)

// check is one rule of the admission policy: for the operator's creates and updates of resource in
// group (in namespace only, when set), expression must hold. Message says what was refused.
type check struct {
	group, resource string
	namespace       string
	expression      string
	message         string
}

const podSpec = "object.spec.template.spec"

// checks is the allow-list: every rule is written from the rendered objects in s or from the rights
// table's names, never from constants of its own.
func (s *Scope) checks() []check {
	var out []check
	for _, m := range s.Descriptor.Managed {
		out = append(out, managedKinds[m.Kind].checks(s)...)
	}
	out = append(out, s.eventChecks()...)
	return out
}

// onlyName is the first check of every managed kind: the operator may write one object of it.
func (s *Scope) onlyName(group, resource, kind, name string) check {
	return check{group, resource, "", `object.metadata.name == ` + celString(name),
		"the " + s.Descriptor.Subject + " operator may only create or change " + kind + " " + name}
}

func (s *Scope) configMapChecks() []check {
	return []check{s.onlyName("", "configmaps", "ConfigMap", s.ConfigMap.Name)}
}

func (s *Scope) deploymentChecks() []check {
	d := s.Deployment
	max := s.Descriptor.MaxReplicas
	pod := d.Spec.Template.Spec
	sc := pod.SecurityContext
	images := map[string]string{}
	addCaps := map[string][]string{}
	dropCaps := map[string][]string{}
	var names []string
	for _, c := range pod.Containers {
		names = append(names, c.Name)
		images[c.Name] = c.Image
		addCaps[c.Name], dropCaps[c.Name] = []string{}, []string{}
		if c.SecurityContext != nil && c.SecurityContext.Capabilities != nil {
			for _, a := range c.SecurityContext.Capabilities.Add {
				addCaps[c.Name] = append(addCaps[c.Name], string(a))
			}
			for _, a := range c.SecurityContext.Capabilities.Drop {
				dropCaps[c.Name] = append(dropCaps[c.Name], string(a))
			}
		}
	}
	uid, gid := celInt(*sc.RunAsUser), celInt(*sc.RunAsGroup)
	seccomp := celString(string(sc.SeccompProfile.Type))

	var configMaps []string
	emptyDir := false
	for _, v := range pod.Volumes {
		switch {
		case v.ConfigMap != nil:
			configMaps = append(configMaps, v.ConfigMap.Name)
		case v.EmptyDir != nil:
			emptyDir = true
		}
	}
	// The API server accepts exactly one source per volume, so naming the allowed source admits
	// nothing else: no secret, projected, hostPath, NFS, CSI or ephemeral volume.
	volume := []string{`has(v.configMap) && v.configMap.name in ` + celStrings(configMaps)}
	if emptyDir {
		volume = append(volume, `has(v.emptyDir)`)
	}

	var tolerations []string
	for _, t := range pod.Tolerations {
		seconds := `!t.?tolerationSeconds.hasValue()`
		if t.TolerationSeconds != nil {
			seconds = `t.?tolerationSeconds.orValue(-1) == ` + celInt(*t.TolerationSeconds)
		}
		operator := t.Operator
		if operator == "" {
			operator = corev1.TolerationOpEqual
		}
		tolerations = append(tolerations, allOf(
			`t.?key.orValue("") == `+celString(t.Key),
			`t.?operator.orValue("Equal") == `+celString(string(operator)),
			`t.?value.orValue("") == `+celString(t.Value),
			`t.?effect.orValue("") == `+celString(string(t.Effect)),
			seconds))
	}
	rendered := pod.Affinity
	if rendered == nil {
		rendered = &corev1.Affinity{}
	}
	var podAffinity, podAntiAffinity corev1.PodAffinity
	if rendered.PodAffinity != nil {
		podAffinity = *rendered.PodAffinity
	}
	if rendered.PodAntiAffinity != nil {
		podAntiAffinity = corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  rendered.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution,
			PreferredDuringSchedulingIgnoredDuringExecution: rendered.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
		}
	}
	nodeAffinity := allOf(nodeAffinityCheck(rendered.NodeAffinity),
		podAffinityCheck("podAffinity", rendered.PodAffinity != nil, podAffinity.RequiredDuringSchedulingIgnoredDuringExecution, podAffinity.PreferredDuringSchedulingIgnoredDuringExecution),
		podAffinityCheck("podAntiAffinity", rendered.PodAntiAffinity != nil, podAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, podAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution))
	scheduler := pod.SchedulerName
	if scheduler == "" {
		scheduler = corev1.DefaultSchedulerName
	}

	probeHosts := []string{}
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		probeHosts = append(probeHosts, `!c.?`+probe+`.?httpGet.?host.hasValue()`, `!c.?`+probe+`.?tcpSocket.?host.hasValue()`)
	}
	for _, hook := range []string{"postStart", "preStop"} {
		probeHosts = append(probeHosts, `!c.?lifecycle.?`+hook+`.?httpGet.?host.hasValue()`, `!c.?lifecycle.?`+hook+`.?tcpSocket.?host.hasValue()`)
	}

	deny := func(expression, message string) check {
		return check{"apps", "deployments", "", expression, "the " + s.Descriptor.Subject + " Deployment " + message}
	}
	containers := func(condition string) string { return podSpec + `.containers.all(c, ` + condition + `)` }
	return []check{
		s.onlyName("apps", "deployments", "Deployment", d.Name),
		deny(`object.spec.?replicas.orValue(1) <= `+celInt(max), "may have at most "+celInt(max)+" replicas"),
		deny(allOf(`object.spec.selector.?matchLabels.orValue({}) == `+celStringMap(d.Spec.Selector.MatchLabels),
			`object.spec.selector.?matchExpressions.orValue([]).size() == 0`),
			"must select its pods by "+celStringMap(d.Spec.Selector.MatchLabels)),
		deny(`object.spec.template.metadata.?labels.orValue({}).all(k, k in `+celStringMap(d.Spec.Template.Labels)+
			` && object.spec.template.metadata.labels[k] == `+celStringMap(d.Spec.Template.Labels)+`[k])`,
			"may only label its pods "+celStringMap(d.Spec.Template.Labels)+", so no other Service selects them"),
		deny(`object.spec.template.metadata.?annotations.orValue({}).all(k, !k.startsWith("container.apparmor.security.beta.kubernetes.io/") && !k.startsWith("seccomp.security.alpha.kubernetes.io/"))`,
			"may not set AppArmor or seccomp profiles through annotations"),
		deny(allOf(podSpec+`.?serviceAccountName.orValue("") == `+celString(pod.ServiceAccountName),
			podSpec+`.?serviceAccount.orValue(`+celString(pod.ServiceAccountName)+`) == `+celString(pod.ServiceAccountName)),
			"must run as service account "+pod.ServiceAccountName),
		deny(allOf(podSpec+`.?initContainers.orValue([]).size() == 0`, podSpec+`.?ephemeralContainers.orValue([]).size() == 0`),
			"may not have init or ephemeral containers"),
		deny(containers(`c.name in `+celStrings(names)+` && c.image == `+celStringMap(images)+`[c.name]`),
			"may only run containers "+celStrings(names)+" with the image kops pins, "+celStringMap(images)),
		deny(containers(allOf(`!c.?envFrom.hasValue()`, `c.?env.orValue([]).all(e, !e.?valueFrom.hasValue())`)),
			"may not take environment variables from Secrets, ConfigMaps or fields (envFrom, valueFrom)"),
		deny(allOf(`!`+podSpec+`.?hostNetwork.orValue(false)`, `!`+podSpec+`.?hostPID.orValue(false)`, `!`+podSpec+`.?hostIPC.orValue(false)`),
			"may not use the host's network, process or IPC namespaces"),
		deny(podSpec+`.?volumes.orValue([]).all(v, `+anyOf(volume)+`)`,
			volumeText(configMaps, emptyDir)),
		deny(allOf(podSpec+`.?imagePullSecrets.orValue([]).size() == 0`, podSpec+`.?resourceClaims.orValue([]).size() == 0`),
			"may not name image pull secrets or resource claims"),
		deny(allOf(`!`+podSpec+`.?nodeName.hasValue()`,
			podSpec+`.?nodeSelector.orValue({}).all(k, k in `+celStringMap(pod.NodeSelector)+` && `+podSpec+`.nodeSelector[k] == `+celStringMap(pod.NodeSelector)+`[k])`,
			nodeAffinity,
			podSpec+`.?schedulerName.orValue(`+celString(scheduler)+`) == `+celString(scheduler),
			`!`+podSpec+`.?runtimeClassName.hasValue()`),
			"may not choose its nodes, scheduler or runtime beyond nodeSelector "+celStringMap(pod.NodeSelector)),
		deny(podSpec+`.?tolerations.orValue([]).all(t, `+anyOf(tolerations)+`)`,
			"may only have the tolerations kops renders"),
		deny(podSpec+`.?priorityClassName.orValue(`+celString(pod.PriorityClassName)+`) == `+celString(pod.PriorityClassName),
			priorityText(pod.PriorityClassName)),
		deny(allOf(podSpec+`.?securityContext.?runAsNonRoot.orValue(false)`,
			podSpec+`.?securityContext.?runAsUser.orValue(0) == `+uid,
			podSpec+`.?securityContext.?runAsGroup.orValue(0) == `+gid,
			podSpec+`.?securityContext.?sysctls.orValue([]).size() == 0`,
			podSpec+`.?securityContext.?fsGroup.orValue(1) != 0`,
			podSpec+`.?securityContext.?supplementalGroups.orValue([]).all(g, g != 0)`,
			`!`+podSpec+`.?securityContext.?seLinuxOptions.hasValue()`,
			`!`+podSpec+`.?securityContext.?windowsOptions.?hostProcess.orValue(false)`),
			"must run as non-root user "+uid+" and group "+gid+", in no root group, with no sysctls, SELinux options or host process"),
		deny(allOf(podSpec+`.?securityContext.?seccompProfile.?type.orValue("") == `+seccomp,
			podSpec+`.?securityContext.?appArmorProfile.?type.orValue("RuntimeDefault") == "RuntimeDefault"`,
			containers(allOf(`c.?securityContext.?seccompProfile.?type.orValue(`+seccomp+`) == `+seccomp,
				`c.?securityContext.?appArmorProfile.?type.orValue("RuntimeDefault") == "RuntimeDefault"`))),
			"must run with the "+string(sc.SeccompProfile.Type)+" seccomp and AppArmor profiles, never Unconfined"),
		deny(containers(allOf(`c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false`,
			`!c.?securityContext.?privileged.orValue(false)`,
			`c.?securityContext.?procMount.orValue("Default") == "Default"`)),
			"must set allowPrivilegeEscalation: false on every container, and may not run privileged or unmask /proc"),
		deny(containers(allOf(`c.?securityContext.?capabilities.?add.orValue([]).all(x, x in `+celStringListMap(addCaps)+`[c.name])`,
			celStringListMap(dropCaps)+`[c.name].all(x, x in c.?securityContext.?capabilities.?drop.orValue([]))`)),
			"may only add the capabilities kops renders, "+celStringListMap(addCaps)+", and must drop "+celStringListMap(dropCaps)),
		deny(containers(allOf(`c.?securityContext.?runAsNonRoot.orValue(true)`,
			`c.?securityContext.?runAsUser.orValue(`+uid+`) == `+uid,
			`c.?securityContext.?runAsGroup.orValue(`+gid+`) == `+gid,
			`!c.?securityContext.?seLinuxOptions.hasValue()`,
			`!c.?securityContext.?windowsOptions.?hostProcess.orValue(false)`)),
			"may not run a container as another user or group, with SELinux options or as a host process"),
		deny(containers(allOf(`c.?ports.orValue([]).all(p, p.?hostPort.orValue(0) == 0 && !p.?hostIP.hasValue())`)),
			"may not bind host ports"),
		deny(containers(allOf(probeHosts...)),
			"may not point probes or lifecycle hooks at other hosts"),
	}
}

func volumeText(configMaps []string, emptyDir bool) string {
	if len(configMaps) == 0 && !emptyDir {
		return "may not mount any volume"
	}
	return "may only mount ConfigMap " + celStrings(configMaps) + emptyDirText(emptyDir) + ": no Secret, projected, host path, NFS, CSI or ephemeral volume"
}

func priorityText(class string) string {
	if class == "" {
		return "may not use a priority class"
	}
	return "may only use priority class " + class
}

func emptyDirText(emptyDir bool) string {
	if emptyDir {
		return " and emptyDir"
	}
	return ""
}
