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

package channels

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/util/pkg/vfs"
)

// kindCase is a kind channels knows the rules of, with the rest of a valid object of it.
type kindCase struct {
	apiVersion, kind, resource string
	namespaced                 bool
	body                       string // YAML of the fields besides apiVersion, kind and metadata
	names                      []string
}

const podSpec = "{containers: [{name: c, image: 'registry.k8s.io/pause:3.10'}]}"
const workload = "spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: " + podSpec + "}}"

// channels' offline check of object names and scopes (ReadChannel) agrees with a real API server,
// kind by kind: a name channels refuses, the server refuses (a dry-run create of an otherwise
// valid object answers Invalid on metadata.name), and the other way round; and a kind channels
// requires a namespace for is namespaced in discovery. The one planned difference is a Service
// name starting with a digit, which channels leaves to the server (a feature gate allows it).
func TestNameRulesAgreeWithTheServer(t *testing.T) {
	names := []string{"a", "a.b", "a-b.c-d", "Upper", "a_b", "system:x", "-a", "a%b", "1a",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 253), strings.Repeat("a", 254)}
	kinds := []kindCase{
		{"v1", "ConfigMap", "configmaps", true, "", nil},
		{"v1", "Secret", "secrets", true, "", nil},
		{"v1", "ServiceAccount", "serviceaccounts", true, "", nil},
		{"v1", "Service", "services", true, "spec: {ports: [{port: 80}]}", nil},
		{"v1", "Pod", "pods", true, "spec: " + podSpec, nil},
		{"v1", "PersistentVolumeClaim", "persistentvolumeclaims", true, "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}", nil},
		{"v1", "Endpoints", "endpoints", true, "", nil},
		{"v1", "LimitRange", "limitranges", true, "spec: {limits: [{type: Container, max: {cpu: '1'}}]}", nil},
		{"v1", "ResourceQuota", "resourcequotas", true, "", nil},
		{"v1", "ReplicationController", "replicationcontrollers", true, "spec: {selector: {a: b}, template: {metadata: {labels: {a: b}}, spec: " + podSpec + "}}", nil},
		{"v1", "Namespace", "namespaces", false, "", nil},
		{"v1", "PersistentVolume", "persistentvolumes", false, "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp}}", nil},
		{"v1", "Node", "nodes", false, "", nil},
		{"apps/v1", "Deployment", "deployments", true, workload, nil},
		{"apps/v1", "DaemonSet", "daemonsets", true, workload, nil},
		{"apps/v1", "StatefulSet", "statefulsets", true, workload, nil},
		{"apps/v1", "ReplicaSet", "replicasets", true, workload, nil},
		{"apps/v1", "ControllerRevision", "controllerrevisions", true, "revision: 1\ndata: {a: b}", nil},
		{"rbac.authorization.k8s.io/v1", "Role", "roles", true, "", nil},
		{"rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", true, "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}", nil},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", false, "", nil},
		{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", false, "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}", nil},
		{"policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true, "spec: {minAvailable: 1, selector: {matchLabels: {a: b}}}", nil},
		{"coordination.k8s.io/v1", "Lease", "leases", true, "", nil},
		{"networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", true, "spec: {podSelector: {}}", nil},
		{"networking.k8s.io/v1", "Ingress", "ingresses", true, "spec: {defaultBackend: {service: {name: a, port: {number: 80}}}}", nil},
		{"networking.k8s.io/v1", "IngressClass", "ingressclasses", false, "spec: {controller: example.com/c}", nil},
		{"discovery.k8s.io/v1", "EndpointSlice", "endpointslices", true, "addressType: IPv4\nendpoints: []", nil},
		{"autoscaling/v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true, "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: a}, maxReplicas: 2}", nil},
		{"scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false, "value: 1", nil},
		{"storage.k8s.io/v1", "StorageClass", "storageclasses", false, "provisioner: example.com/p", nil},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", false,
			"spec: {group: example.com, scope: Namespaced, names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}, " +
				"versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]}",
			[]string{"widgets.example.com", "Widgets.example.com", "widgets.example.org"}},
		{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", false,
			"spec: {matchConstraints: {resourceRules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]}, validations: [{expression: 'true'}]}", nil},
		{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", false,
			"spec: {policyName: p, validationActions: [Deny]}", nil},
		{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false, "", nil},
		{"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", false, "", nil},
	}
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	mem := &vfs.MemFS{}
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			gv, err := schema.ParseGroupVersion(k.apiVersion)
			require.NoError(t, err)
			served, err := env.Clientset.Discovery().ServerResourcesForGroupVersion(k.apiVersion)
			require.NoError(t, err)
			found := false
			for _, r := range served.APIResources {
				if r.Kind == k.kind && r.Name == k.resource {
					found = true
					assert.Equal(t, k.namespaced, r.Namespaced, "scope in discovery")
				}
			}
			require.True(t, found, "served: %s", k.resource)

			namespace := ""
			if k.namespaced {
				namespace = "default"
			}
			// channels' scope: it refuses a namespaced object without a namespace, and a
			// cluster-scoped one with a namespace.
			wrongScope := map[bool]string{true: "", false: "default"}[k.namespaced]
			_, oursErr := readObject(t, mem, k, "scope", k.names, wrongScope)
			assert.ErrorContains(t, oursErr, "metadata.namespace: ", "channels knows %s's scope", k.kind)

			candidates := names
			if k.names != nil {
				candidates = k.names
			}
			client := dyn.Resource(gv.WithResource(k.resource)).Namespace(namespace)
			for i, name := range candidates {
				obj, oursErr := readObject(t, mem, k, fmt.Sprintf("n%d", i), []string{name}, namespace)
				_, serverErr := client.Create(framework.Context(t), obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
				oursRefuses := oursErr != nil && strings.Contains(oursErr.Error(), "metadata.name: ")
				serverRefuses := refusesName(serverErr)
				if oursErr != nil && !oursRefuses {
					t.Errorf("%s %q: channels refuses it for another reason: %v", k.kind, name, oursErr)
				}
				if serverErr != nil && !serverRefuses {
					t.Errorf("%s %q: the server refuses it for another reason (fix the test's object): %v", k.kind, name, serverErr)
				}
				if k.kind == "Service" && name == "1a" {
					assert.True(t, serverRefuses && !oursRefuses, "a Service name starting with a digit is left to the server")
					continue
				}
				assert.Equal(t, serverRefuses, oursRefuses, "%s %q: server refuses: %v; channels refuses: %v", k.kind, name, serverErr, oursErr)
			}
		})
	}
}

// readObject writes a channel whose one addon holds the kind's object named names[0] and reads it
// as channels apply does; it returns the object and ReadChannel's error.
func readObject(t *testing.T, mem *vfs.MemFS, k kindCase, dir string, names []string, namespace string) (*unstructured.Unstructured, error) {
	obj := &unstructured.Unstructured{Object: map[string]interface{}{}}
	if k.body != "" {
		require.NoError(t, yaml.Unmarshal([]byte(k.body), &obj.Object))
	}
	obj.SetAPIVersion(k.apiVersion)
	obj.SetKind(k.kind)
	name := "a"
	if len(names) > 0 {
		name = names[0]
	}
	obj.SetName(name)
	obj.SetNamespace(namespace)
	manifest, err := yaml.Marshal(obj.Object)
	require.NoError(t, err)
	location := testChannel(t, mem, "names/"+k.kind+"/"+dir, "", [][2]string{{"names", string(manifest)}}, nil)
	_, err = apply.ReadChannel(location, vfs.NewContext(mem))
	return obj, err
}

// refusesName reports whether the API server answered that the object's name is invalid.
func refusesName(err error) bool {
	var status apierrors.APIStatus
	if err == nil || !errors.As(err, &status) || !apierrors.IsInvalid(err) {
		return false
	}
	details := status.Status().Details
	if details == nil {
		return false
	}
	for _, c := range details.Causes {
		if c.Field == "metadata.name" {
			return true
		}
	}
	return false
}
