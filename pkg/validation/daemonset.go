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
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

var daemonSetResource = appsv1.SchemeGroupVersion.WithResource("daemonsets")

// checkDaemonSet requires the DaemonSet ready on every node it is scheduled to.
func (a *attempt) checkDaemonSet(namespace, name string) Check {
	c := Check{Kind: "DaemonSet", Name: namespace + "/" + name}
	d := &appsv1.DaemonSet{}
	h, ok := a.judge(daemonSetResource, namespace, name, d, &c)
	if !ok {
		return c
	}
	st := d.Status
	switch {
	case !h.Observed:
		c.Message = "not ready: " + h.Message
	case h.Current():
		c.OK = true
		c.Message = fmt.Sprintf("ready on %d/%d nodes", st.NumberReady, st.DesiredNumberScheduled)
	case h.Status == kstatus.FailedStatus:
		c.Message = "failed: " + h.Message
	default:
		c.Message = fmt.Sprintf("not ready: %d of %d nodes ready, %d updated", st.NumberReady, st.DesiredNumberScheduled, st.UpdatedNumberScheduled)
	}
	return c
}
