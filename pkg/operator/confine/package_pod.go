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

package confine

// deploymentShape is the allow-list of the operator's Deployment: the descriptor's ServiceAccount,
// non-root, RuntimeDefault seccomp, and no privilege, host access, volume, secret or placement
// beyond the descriptor's. A pod that could reach the node or read Secrets would make the
// confinement of its rights moot.

func (d *Descriptor) deploymentShape() shape {
	selector := map[string]string{"k8s-app": d.DeploymentName}
	return fields(map[string]shape{
		"apiVersion": anyString, "kind": anyString, "metadata": metadata(anyStringMap),
		"spec": fields(map[string]shape{
			"replicas":             intIn(0, 3),
			"revisionHistoryLimit": intIn(0, 100),
			"strategy": fields(map[string]shape{"type": oneOf("RollingUpdate", "Recreate"),
				"rollingUpdate": fields(map[string]shape{"maxSurge": intOrString, "maxUnavailable": intOrString})}),
			"selector": fields(map[string]shape{"matchLabels": stringMap(selector)}, "matchLabels"),
			"template": fields(map[string]shape{
				"metadata": fields(map[string]shape{"labels": stringMap(d.podLabels())}),
				"spec":     d.podShape(),
			}, "spec"),
		}, "selector", "template"),
	}, "spec")
}

func (d *Descriptor) podShape() shape {
	nonRoot := intIn(1, 1<<31-1)
	tolerationKeys := make([]interface{}, len(d.Pod.Tolerations))
	for i, k := range d.Pod.Tolerations {
		tolerationKeys[i] = k
	}
	return fields(map[string]shape{
		"serviceAccountName":           oneOf(d.ServiceAccount),
		"automountServiceAccountToken": anyBool,
		"priorityClassName":            oneOf(d.Pod.PriorityClassName),
		"nodeSelector":                 stringMap(d.Pod.NodeSelector),
		"tolerations": listOf(fields(map[string]shape{
			"key": oneOf(tolerationKeys...), "operator": oneOf("Exists"), "effect": oneOf("NoSchedule", "NoExecute"),
		}, "key", "operator")),
		"terminationGracePeriodSeconds": intIn(0, 300),
		"securityContext": fields(map[string]shape{
			"runAsNonRoot":   oneOf(true),
			"runAsUser":      nonRoot,
			"runAsGroup":     nonRoot,
			"fsGroup":        nonRoot,
			"seccompProfile": fields(map[string]shape{"type": oneOf("RuntimeDefault")}, "type"),
		}, "runAsNonRoot", "runAsUser", "seccompProfile"),
		"containers": listOf(containerShape()),
	}, "serviceAccountName", "securityContext", "containers")
}

func containerShape() shape {
	nonRoot := intIn(1, 1<<31-1)
	probe := fields(map[string]shape{
		"httpGet":             fields(map[string]shape{"path": anyString, "port": intOrString, "scheme": oneOf("HTTP", "HTTPS")}, "port"),
		"initialDelaySeconds": intIn(0, 3600), "periodSeconds": intIn(1, 3600), "timeoutSeconds": intIn(1, 3600),
		"failureThreshold": intIn(1, 100), "successThreshold": intIn(1, 100),
	}, "httpGet")
	resources := fields(map[string]shape{"cpu": quantity, "memory": quantity, "ephemeral-storage": quantity})
	return fields(map[string]shape{
		"name":                     anyString,
		"image":                    anyString,
		"imagePullPolicy":          oneOf("IfNotPresent", "Always", "Never"),
		"args":                     listOf(anyString),
		"command":                  listOf(anyString),
		"env":                      listOf(fields(map[string]shape{"name": anyString, "value": anyString}, "name")),
		"ports":                    listOf(fields(map[string]shape{"name": anyString, "containerPort": intIn(1024, 65535), "protocol": oneOf("TCP")}, "containerPort")),
		"livenessProbe":            probe,
		"readinessProbe":           probe,
		"startupProbe":             probe,
		"resources":                fields(map[string]shape{"requests": resources, "limits": resources}),
		"terminationMessagePolicy": oneOf("File", "FallbackToLogsOnError"),
		"securityContext": fields(map[string]shape{
			"runAsNonRoot":             oneOf(true),
			"runAsUser":                nonRoot,
			"runAsGroup":               nonRoot,
			"readOnlyRootFilesystem":   anyBool,
			"allowPrivilegeEscalation": oneOf(false),
			"capabilities":             fields(map[string]shape{"drop": containing("ALL")}, "drop"),
			"seccompProfile":           fields(map[string]shape{"type": oneOf("RuntimeDefault")}, "type"),
		}, "allowPrivilegeEscalation", "capabilities"),
	}, "name", "image", "securityContext")
}
