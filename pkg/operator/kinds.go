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

// Kind is what an operator and the admission policy that confines it both know about one kind the
// operator may manage: its API resource, and what of such an object is not the operator's to
// write but others' by design (everything else the policy compares whole with what kops renders,
// and ExactWrite writes whole). confine adds, per kind, what only the generators need. Adding a
// managed kind is one entry here and one there.
type Kind struct {
	Group, Version, Resource string
	// Ignored are the top-level keys the API server keeps apart from what a client writes (status).
	Ignored map[string]bool
	// Free are, per top-level key, the keys below it that someone else owns (a Deployment's
	// replicas, the autoscaler's); confine bounds them to what is safe.
	Free map[string][]string
	// Allocated are, per top-level key, the keys below it the API server fills in when a rendering
	// leaves them out, from what it allocates (a Service's cluster IP and the family of that
	// address): free then, fixed by the literal when rendered. The server holds them to what it
	// allocated, so they give no writer a choice the address did not already give.
	Allocated map[string][]string
	// ControllerAnnotations are the annotations a controller sets on the object (any value).
	ControllerAnnotations []string
	// ProbeBody is the smallest valid body of an object of the kind, for an enforcement probe.
	ProbeBody map[string]interface{}
	// rendered refuses a rendering that the exact match would admit but kops must never render
	// (a template bug, not a policy's to admit); nil accepts any rendering of the kind.
	rendered func(obj metav1.Object) error
}

// managedKinds are the kinds an operator may manage. A descriptor naming another kind is refused
// (Validate), so nothing an operator writes goes unconfined.
var managedKinds = map[string]Kind{
	"Deployment": {
		Group: "apps", Version: "v1", Resource: "deployments",
		Ignored:               map[string]bool{"status": true},
		Free:                  map[string][]string{"spec": {"replicas"}},
		ControllerAnnotations: []string{"deployment.kubernetes.io/revision"},
		ProbeBody:             map[string]interface{}{"spec": probePodTemplate()},
		rendered:              renderedDeployment,
	},
	// A DaemonSet has no count for anyone else to set: its spec is compared whole, so its pods run
	// exactly as rendered on exactly the nodes the rendering places them on. The API server keeps
	// the template's generation in an annotation it sets itself.
	"DaemonSet": {
		Group: "apps", Version: "v1", Resource: "daemonsets",
		Ignored:               map[string]bool{"status": true},
		ControllerAnnotations: []string{"deprecated.daemonset.template.generation"},
		ProbeBody:             map[string]interface{}{"spec": probePodTemplate()},
		rendered:              renderedDaemonSet,
	},
	// A Service that renders no address gets one from the server, and with it the address's family
	// (ipFamilies): which family is the cluster's (its first service range), not the rendering's,
	// so a renderer that knows nothing of the cluster cannot write it. The server refuses an
	// ipFamilies that disagrees with the addresses or the ranges it serves, and never lets the
	// first family change; ipFamilyPolicy, which it defaults to the same value everywhere, is
	// rendered and compared.
	"Service": {Group: "", Version: "v1", Resource: "services", Ignored: map[string]bool{"status": true},
		Allocated: map[string][]string{"spec": {"clusterIP", "clusterIPs", "ipFamilies"}},
		ProbeBody: map[string]interface{}{"spec": map[string]interface{}{"ports": []interface{}{map[string]interface{}{"port": int64(1)}}}}},
	"ServiceAccount": {Group: "", Version: "v1", Resource: "serviceaccounts"},
	"ConfigMap":      {Group: "", Version: "v1", Resource: "configmaps"},
}

// ManagedResource is the API resource of a kind an operator may manage, for the clients that write
// it; false for any other kind.
func ManagedResource(kind string) (schema.GroupVersionResource, bool) {
	k, ok := managedKinds[kind]
	return schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}, ok
}

// KindOf is what an operator may own of an object of kind; false for a kind no operator may manage.
func KindOf(kind string) (Kind, bool) {
	k, ok := managedKinds[kind]
	return k, ok
}

// probePodTemplate is a workload's smallest valid spec.
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

// ManagedKinds are the kinds an operator may manage, sorted.
func ManagedKinds() []string { return slices.Sorted(maps.Keys(managedKinds)) }

// FreeKeys are the keys below the top-level key k of a rendered object that are not the
// rendering's to fix: Free, and Allocated when the rendering leaves them out.
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

// ExactWrite is the object an operator writes to make current exactly what kops renders: desired
// (the rendering without kops's channels' metadata), with what the admission policy leaves to
// others taken from current: the server's metadata, kops's channels' label and annotation, the
// annotations controllers set, the fields the server keeps apart (status), and the keys others
// own (a Deployment's replicas, a Service's allocated address). Anything else someone added to
// current is dropped, so the policy admits the write.
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
	return out
}

// ServerMetadata are the metadata fields the API server sets itself; a client's values there are
// ignored or refused by the server, never stored as the client wrote them. (selfLink is not among
// them: the server no longer sets it, and keeps one a client sends.)
var ServerMetadata = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
	"deletionGracePeriodSeconds", "managedFields"}

// ChannelsLabels and ChannelsAnnotations are kops's channels' own metadata: the label naming the
// addon that applied an object, and the annotation naming the addon that takes it over when its own
// leaves the channel. An operator leaves them to channels: it does not apply them (channels moves an
// object's label to the annotation's addon on a handover), and the exact policy lets it neither
// set nor change nor remove them.
var (
	ChannelsLabels      = []string{channelsapi.LabelAddonName}
	ChannelsAnnotations = []string{channelsapi.AnnotationHandoverTo}
)
