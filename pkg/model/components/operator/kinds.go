package operator

import (
	"sort"

	"k8s.io/apimachinery/pkg/runtime"
)

// kindRules is how the admission policy compares the operator's writes of one kind with what kops
// renders: the API resource, and what of such an object is not the operator's to write but others'
// by design. Everything else is compared whole.
type kindRules struct {
	group, resource string
	// ignored are the top-level keys the API server keeps apart from what a client writes (status).
	ignored map[string]bool
	// free are, per top-level key, the keys below it that someone else owns (a Deployment's
	// replicas, the autoscaler's); bounds holds them to what is safe.
	free   map[string][]string
	bounds func(d *Descriptor) (expression, message string)
	// allocated are, per top-level key, the keys below it the API server fills in when a rendering
	// leaves them out (a Service's cluster IP): free then, fixed by the literal when rendered.
	allocated map[string][]string
	// controllerAnnotations are the annotations a controller sets on the object (any value).
	controllerAnnotations []string
	// probeBody is the smallest valid body of an object of the kind, for an enforcement probe.
	probeBody map[string]interface{}
}

// managedKinds are the kinds an operator may manage. A descriptor naming another kind is refused
// (Validate), so nothing an operator writes goes unconfined.
var managedKinds = map[string]kindRules{
	"Deployment": {
		group: "apps", resource: "deployments",
		ignored: map[string]bool{"status": true},
		free:    map[string][]string{"spec": {"replicas"}},
		bounds: func(d *Descriptor) (string, string) {
			max := celInt(d.MaxReplicas)
			return `object.spec.?replicas.orValue(1) >= 1 && object.spec.?replicas.orValue(1) <= ` + max,
				"may have 1 to " + max + " replicas (its autoscaler sets the count)"
		},
		controllerAnnotations: []string{"deployment.kubernetes.io/revision"},
		probeBody:             map[string]interface{}{"spec": probePodTemplate()},
	},
	"DaemonSet": {
		group: "apps", resource: "daemonsets",
		ignored:               map[string]bool{"status": true},
		controllerAnnotations: []string{"deprecated.daemonset.template.generation"},
		probeBody:             map[string]interface{}{"spec": probePodTemplate()},
	},
	"Service": {group: "", resource: "services", ignored: map[string]bool{"status": true},
		allocated: map[string][]string{"spec": {"clusterIP", "clusterIPs"}},
		probeBody: map[string]interface{}{"spec": map[string]interface{}{"ports": []interface{}{map[string]interface{}{"port": int64(1)}}}}},
	"ServiceAccount": {group: "", resource: "serviceaccounts"},
	"ConfigMap":      {group: "", resource: "configmaps"},
}

// probePodTemplate is a workload's smallest valid spec.
func probePodTemplate() map[string]interface{} {
	labels := map[string]interface{}{"channels.kops.k8s.io/enforcement-probe": "true"}
	return map[string]interface{}{
		"selector": map[string]interface{}{"matchLabels": labels},
		"template": map[string]interface{}{
			"metadata": map[string]interface{}{"labels": labels},
			"spec":     map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "probe", "image": "probe"}}},
		},
	}
}

func supportedKinds() []string {
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
