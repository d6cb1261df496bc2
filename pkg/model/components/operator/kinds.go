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
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

// kindRules is everything the generators know about one kind an operator may manage: its API
// resource, how the admission policy compares the operator's writes of it with what kops renders
// (what of such an object is not the operator's to write but others' by design; everything else is
// compared whole), what kops's own rendering of it must hold, and how to probe the policy with it.
// Adding a managed kind is adding one entry to managedKinds.
type kindRules struct {
	group, version, resource string
	// ignored are the top-level keys the API server keeps apart from what a client writes (status).
	ignored map[string]bool
	// free are, per top-level key, the keys below it that someone else owns (a Deployment's
	// replicas, the autoscaler's); bounds holds them to what is safe.
	free   map[string][]string
	bounds func(d *Descriptor) (expression, message string)
	// allocated are, per top-level key, the keys below it the API server fills in when a rendering
	// leaves them out, from what it allocates (a Service's cluster IP and the family of that
	// address): free then, fixed by the literal when rendered. The server holds them to what it
	// allocated, so they give no writer a choice the address did not already give.
	allocated map[string][]string
	// controllerAnnotations are the annotations a controller sets on the object (any value).
	controllerAnnotations []string
	// rendered refuses a rendering that the exact match would admit but kops must never render
	// (a template bug, not a policy's to admit); nil accepts any rendering of the kind.
	rendered func(obj metav1.Object) error
	// probeBody is the smallest valid body of an object of the kind, for an enforcement probe.
	probeBody map[string]interface{}
}

// managedKinds are the kinds an operator may manage. A descriptor naming another kind is refused
// (Validate), so nothing an operator writes goes unconfined.
var managedKinds = map[string]kindRules{
	"Deployment": {
		group: "apps", version: "v1", resource: "deployments",
		ignored: map[string]bool{"status": true},
		free:    map[string][]string{"spec": {"replicas"}},
		bounds: func(d *Descriptor) (string, string) {
			max := celInt(d.MaxReplicas)
			return `object.spec.?replicas.orValue(1) >= 1 && object.spec.?replicas.orValue(1) <= ` + max,
				"may have 1 to " + max + " replicas"
		},
		controllerAnnotations: []string{"deployment.kubernetes.io/revision"},
		rendered:              renderedDeployment,
		probeBody:             map[string]interface{}{"spec": probePodTemplate()},
	},
	// A DaemonSet has no count for anyone else to set: its spec is compared whole, so its pods run
	// exactly as rendered on exactly the nodes the rendering places them on. The API server keeps
	// the template's generation in an annotation it sets itself.
	"DaemonSet": {
		group: "apps", version: "v1", resource: "daemonsets",
		ignored:               map[string]bool{"status": true},
		controllerAnnotations: []string{"deprecated.daemonset.template.generation"},
		rendered:              renderedDaemonSet,
		probeBody:             map[string]interface{}{"spec": probePodTemplate()},
	},
	// A Service that renders no address gets one from the server, and with it the address's family
	// (ipFamilies): which family is the cluster's (its first service range), not the rendering's,
	// so a renderer that knows nothing of the cluster cannot write it. The server refuses an
	// ipFamilies that disagrees with the addresses or the ranges it serves, and never lets the
	// first family change; ipFamilyPolicy, which it defaults to the same value everywhere, is
	// rendered and compared.
	"Service": {group: "", version: "v1", resource: "services", ignored: map[string]bool{"status": true},
		allocated: map[string][]string{"spec": {"clusterIP", "clusterIPs", "ipFamilies"}},
		probeBody: map[string]interface{}{"spec": map[string]interface{}{"ports": []interface{}{map[string]interface{}{"port": int64(1)}}}}},
	"ServiceAccount": {group: "", version: "v1", resource: "serviceaccounts"},
	"ConfigMap":      {group: "", version: "v1", resource: "configmaps"},
}

// ManagedResource is the API resource of a kind an operator may manage, for the clients that write
// it; false for any other kind.
func ManagedResource(kind string) (schema.GroupVersionResource, bool) {
	k, ok := managedKinds[kind]
	return schema.GroupVersionResource{Group: k.group, Version: k.version, Resource: k.resource}, ok
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
func ManagedKinds() []string {
	var kinds []string
	for k := range managedKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// freeKeys are the keys below the top-level key k of a rendered object that the literal leaves out.
func (r kindRules) freeKeys(k string, rendered interface{}) []string {
	free := append([]string(nil), r.free[k]...)
	m, _ := rendered.(map[string]interface{})
	for _, a := range r.allocated[k] {
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
	for k := range rules.ignored {
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
		for _, free := range rules.freeKeys(k, m) {
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
	for _, k := range serverMetadata {
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
	keep("annotations", append(append([]string(nil), ChannelsAnnotations...), rules.controllerAnnotations...))
	return out
}
