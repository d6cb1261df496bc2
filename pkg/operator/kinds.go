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

package operator

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

// Kind is one kind an operator may manage: its API resource and the parts of an object that are
// others' to write. Everything else the admission policy compares whole with kops's rendering and
// ExactWrite writes whole. confine adds what only the generators need.
type Kind struct {
	Group, Version, Resource string
	// Ignored are the top-level keys the API server keeps apart from what a client writes (status).
	Ignored map[string]bool
	// Free are, per top-level key, the keys below it someone else owns (a Deployment's replicas).
	Free map[string][]string
	// Allocated are, per top-level key, the keys the API server fills in from what it allocates
	// when the rendering leaves them out, before admission sees the object: a value the writer
	// asked for looks the same there. Where the rendering leaves one out, the policy admits a
	// create whose own fields (managedFields) do not include it and an update that keeps the old
	// object's value; where the rendering has it, it is compared like any other field.
	Allocated map[string][]string
	// ControllerAnnotations are annotations another client (a controller) sets on the object: a
	// writer of the rendering keeps them as they are and never sets them on create.
	ControllerAnnotations []string
	// ServerAnnotations are annotations the API server sets itself, to the value here on create
	// when the client sends none, and on update from the old object whatever the client sends.
	ServerAnnotations map[string]string
	// ProbeBody is the smallest valid body of the kind, for the enforcement probe.
	ProbeBody map[string]interface{}
	// rendered refuses a rendering the exact match would admit but kops must never render; nil
	// accepts any.
	rendered func(obj metav1.Object) error
}

// managedKinds are the kinds an operator may manage. Validate refuses a descriptor naming another
// kind, so nothing an operator writes goes unconfined.
var managedKinds = map[string]Kind{
	"Deployment": {
		Group: "apps", Version: "v1", Resource: "deployments",
		Ignored:               map[string]bool{"status": true},
		Free:                  map[string][]string{"spec": {"replicas"}},
		ControllerAnnotations: []string{"deployment.kubernetes.io/revision"},
		ProbeBody:             map[string]interface{}{"spec": probePodTemplate()},
		rendered:              renderedDeployment,
	},
	// A DaemonSet's spec has no replica count, so it is compared whole.
	"DaemonSet": {
		Group: "apps", Version: "v1", Resource: "daemonsets",
		Ignored: map[string]bool{"status": true},
		// The server keeps a client's value on create only.
		ServerAnnotations: map[string]string{"deprecated.daemonset.template.generation": "1"},
		ProbeBody:         map[string]interface{}{"spec": probePodTemplate()},
		rendered:          renderedDaemonSet,
	},
	// ipFamilies follows the cluster's service range, which the renderer does not know; the server
	// refuses a value that disagrees with the allocated address.
	"Service": {Group: "", Version: "v1", Resource: "services", Ignored: map[string]bool{"status": true},
		Allocated: map[string][]string{"spec": {"clusterIP", "clusterIPs", "ipFamilies"}},
		ProbeBody: map[string]interface{}{"spec": map[string]interface{}{"ports": []interface{}{map[string]interface{}{"port": int64(1)}}}}},
	"ServiceAccount": {Group: "", Version: "v1", Resource: "serviceaccounts"},
	"ConfigMap":      {Group: "", Version: "v1", Resource: "configmaps"},
}

// ManagedResource is the API resource of a managed kind; false for any other kind.
func ManagedResource(kind string) (schema.GroupVersionResource, bool) {
	k, ok := managedKinds[kind]
	return schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}, ok
}

// KindOf returns the rules of a managed kind; false for any other kind.
func KindOf(kind string) (Kind, bool) {
	k, ok := managedKinds[kind]
	return k, ok
}

func probePodTemplate() map[string]interface{} {
	labels := map[string]interface{}{channelsapi.LabelEnforcementProbe: "true"}
	return map[string]interface{}{
		"selector": map[string]interface{}{"matchLabels": labels},
		"template": map[string]interface{}{
			"metadata": map[string]interface{}{"labels": labels},
			"spec":     map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "probe", "image": "probe"}}},
		},
	}
}

func ManagedKinds() []string { return slices.Sorted(maps.Keys(managedKinds)) }

// FreeKeys are the keys below top-level key k that the rendering does not fix: Free, and
// Allocated when rendered leaves them out.
func (r Kind) FreeKeys(k string, rendered interface{}) []string {
	free := append([]string(nil), r.Free[k]...)
	m, _ := rendered.(map[string]interface{})
	for _, a := range r.Allocated[k] {
		if _, ok := m[a]; !ok {
			free = append(free, a)
		}
	}
	return free
}

// ExactWrite returns desired with what the admission policy leaves to others (server metadata,
// channels' label and annotation, controller annotations, Ignored and free keys) copied from
// current. Anything else added to current is dropped, so the policy admits the write.
func ExactWrite(kind string, desired, current map[string]interface{}) map[string]interface{} {
	rules := managedKinds[kind]
	out := runtime.DeepCopyJSON(desired)
	for k := range rules.Ignored {
		if v, ok := current[k]; ok {
			out[k] = v
		}
	}
	for k, body := range out {
		m, ok := body.(map[string]interface{})
		if !ok {
			continue
		}
		have, _ := current[k].(map[string]interface{})
		for _, free := range rules.FreeKeys(k, m) {
			if v, ok := have[free]; ok {
				m[free] = v
			}
		}
	}
	meta, _ := out["metadata"].(map[string]interface{})
	if meta == nil {
		meta = map[string]interface{}{}
		out["metadata"] = meta
	}
	have, _ := current["metadata"].(map[string]interface{})
	for _, k := range ServerMetadata {
		if v, ok := have[k]; ok {
			meta[k] = v
		}
	}
	keep := func(field string, keys []string) {
		from, _ := have[field].(map[string]interface{})
		for _, k := range keys {
			if v, ok := from[k]; ok {
				into, _ := meta[field].(map[string]interface{})
				if into == nil {
					into = map[string]interface{}{}
					meta[field] = into
				}
				into[k] = v
			}
		}
	}
	keep("labels", ChannelsLabels)
	keep("annotations", append(append([]string(nil), ChannelsAnnotations...), rules.ControllerAnnotations...))
	// On update the server sets its annotations from the old object; sending them back is exact.
	keep("annotations", slices.Sorted(maps.Keys(rules.ServerAnnotations)))
	return out
}

// ServerMetadata are the metadata fields the API server sets itself. selfLink is not among them:
// the server no longer sets it and keeps what a client sends.
var ServerMetadata = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
	"deletionGracePeriodSeconds", "managedFields"}

// ChannelsLabels and ChannelsAnnotations are channels' own metadata (owning addon, handover
// target). Only channels writes them; the exact policy forbids the operator to change them.
var (
	ChannelsLabels      = []string{channelsapi.LabelAddonName}
	ChannelsAnnotations = []string{channelsapi.AnnotationHandoverTo}
)
