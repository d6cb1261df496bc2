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

package kopsmodel

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator/confine"
)

// MaxReplicas is the replica count kops renders, so no write of the operator can run more.
const MaxReplicas = 2

// Descriptor is the operator as kops confines it (package confine generates the rest), built afresh
// on each call so no caller can change another's.
func Descriptor() *confine.Descriptor {
	d := &confine.Descriptor{
		Descriptor:  *metricsserver.Descriptor(),
		CRDFields:   crdFields(),
		CRDColumns:  confine.CRDColumns(),
		MaxReplicas: MaxReplicas,
		Rights:      rights(),
		Pod: confine.PodAllowance{
			PriorityClassName: "system-cluster-critical",
			NodeSelector:      map[string]string{"kubernetes.io/os": "linux"},
			Tolerations:       []string{"CriticalAddonsOnly"},
		},
	}
	d.Prerequisites = prerequisites(d.PrerequisitesAddon())
	return d
}

// prerequisites are metricsserver.RenderPrerequisites' objects, which kops writes before the
// operator runs. They depend on no field of the object, so the default spec renders them.
// Descriptor returns no error, so a failure is carried as an object Validate refuses, naming it;
// OperatorBuilder validates the descriptor before writing them.
func prerequisites(addon string) []runtime.Object {
	objects, err := renderPrerequisites(addon)
	if err != nil {
		return []runtime.Object{&unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "metrics-server-prerequisites/error", "kind": err.Error(),
		}}}
	}
	return objects
}

func renderPrerequisites(addon string) ([]runtime.Object, error) {
	spec := metricsserver.Spec{Version: metricsserver.DefaultVersion, Image: metricsserver.DefaultImage, Insecure: true}
	manifest, err := metricsserver.RenderPrerequisites(spec, addon)
	if err != nil {
		return nil, err
	}
	docs, err := kubemanifest.Split(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading metrics-server's prerequisites: %w", err)
	}
	var out []runtime.Object
	for i, doc := range docs {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &u.Object); err != nil {
			return nil, fmt.Errorf("reading metrics-server's prerequisites, document %d: %w", i+1, err)
		}
		out = append(out, u)
	}
	return out, nil
}

const createWhy = "Create the managed objects when missing. Kubernetes cannot limit create by resourceNames (the name is not known when create is authorized), so this is namespace-wide; the admission policy admits only the managed names, their updates and patches are limited by name, and they are never deleted."

// rights is everything the operator may do: no RBAC, APIServices, secrets, pods, wildcards,
// cluster-scoped rights or deletes; writes other than create are limited by name.
func rights() []confine.Right {
	ms, watch := metricsserver.Name, metricsserver.WatchNamespace
	return append([]confine.Right{
		right(watch, "apps", []string{"deployments"}, []string{"get", "list", "watch"}, ms,
			"Watch the metrics-server Deployment for drift and health. The operator lists and watches with fieldSelector metadata.name, the only way Kubernetes authorizes a list or watch limited by name."),
		right(watch, "", []string{"services", "serviceaccounts"}, []string{"get", "list", "watch"}, ms,
			"Watch the metrics-server Service and ServiceAccount for drift, by name as above."),
		right(watch, "apps", []string{"deployments"}, []string{"update", "patch"}, ms,
			"Reconcile only the metrics-server Deployment. Never delete: when the operator is turned off kops deletes the MetricsServer object orphaning what it made."),
		right(watch, "", []string{"services", "serviceaccounts"}, []string{"update", "patch"}, ms,
			"Reconcile only the metrics-server Service (the APIService's backend) and ServiceAccount (the subject of kops's bindings); never delete them."),
		right(watch, "apps", []string{"deployments"}, []string{"create"}, "", createWhy),
		right(watch, "", []string{"services", "serviceaccounts"}, []string{"create"}, "", createWhy),
		right(watch, metricsserver.CRDGroup, []string{metricsserver.CRDResource}, []string{"get", "list", "watch"}, metricsserver.Instructions,
			"Read its instructions, the MetricsServer object kops creates, by name; read-only, so the operator cannot rewrite them."),
		right(watch, metricsserver.CRDGroup, []string{metricsserver.CRDResource + "/status"}, []string{"get", "update", "patch"}, metricsserver.Instructions,
			"Report progress and health on the status of the MetricsServer object."),
		right(watch, "", []string{"events"}, []string{"create", "patch"}, "",
			"Record events on the MetricsServer object and the objects it manages."),
		right(watch, "events.k8s.io", []string{"events"}, []string{"create", "patch"}, "",
			"Same events through the newer events API."),
	}, confine.OwnNamespaceRights(metricsserver.Names())...)
}

// right's name "" means any name.
func right(namespace, group string, resources, verbs []string, name, why string) confine.Right {
	r := confine.Right{Namespace: namespace, APIGroup: group, Resources: resources, Verbs: verbs, Why: why}
	if name != "" {
		r.ResourceNames = []string{name}
	}
	return r
}

// Params are the fields the policy binds, with their values in spec and their Marked markers.
// Insecure is not one: the CRD admits only true.
func Params(spec metricsserver.Spec) []confine.Param {
	m := Marked(spec)
	return []confine.Param{
		{Field: "spec.image", Value: spec.Image, Marker: m.Image},
		{Field: "spec.version", Value: spec.Version, Marker: m.Version},
	}
}

// Marked is spec with every bound field replaced by a marker the renderer accepts and that appears
// nowhere else.
func Marked(spec metricsserver.Spec) metricsserver.Spec {
	return metricsserver.Spec{
		Version:  "0.0.0-policy-marker",
		Image:    "policy-marker.invalid/metrics-server:marker",
		Insecure: spec.Insecure,
	}
}
