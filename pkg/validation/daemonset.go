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

package validation

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
)

var daemonSetResource = appsv1.SchemeGroupVersion.WithResource("daemonsets")

// checkDaemonSet requires the DaemonSet's controller to have seen its latest spec, and its current
// pod to be ready on every node it is scheduled to. A node without it is a node whose pods' metadata
// requests go nowhere.
func (a *attempt) checkDaemonSet(namespace, name string) Check {
	c := Check{Kind: "DaemonSet", Name: namespace + "/" + name}
	d := &appsv1.DaemonSet{}
	if fetchFailed(a.get(daemonSetResource, namespace, name, d), &c) {
		return c
	}
	st := d.Status
	switch {
	case st.ObservedGeneration < d.Generation:
		c.Message = fmt.Sprintf("not ready: generation %d not yet observed by its controller", d.Generation)
	case st.NumberReady < st.DesiredNumberScheduled || st.UpdatedNumberScheduled < st.DesiredNumberScheduled:
		c.Message = fmt.Sprintf("not ready: %d of %d nodes ready, %d updated", st.NumberReady, st.DesiredNumberScheduled, st.UpdatedNumberScheduled)
	default:
		c.OK = true
		c.Message = fmt.Sprintf("ready on %d/%d nodes", st.NumberReady, st.DesiredNumberScheduled)
	}
	return c
}
