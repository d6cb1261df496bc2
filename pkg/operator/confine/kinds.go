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

import "k8s.io/kops/pkg/operator"

// bounds hold, per managed kind, the keys others own (operator.Kind.Free) to what is safe. The
// kinds are operator's one table; Validate refuses a kind with free keys and no bound here.
var bounds = map[string]func(d *Descriptor) (expression, message string){
	// The server defaults an omitted replica count of a Deployment to 1.
	"Deployment": func(d *Descriptor) (string, string) { return d.replicasWithin(1) },
}

// minReplicas is the fewest replicas of a managed Deployment: with none, the addon is down.
const minReplicas = 1

// ReplicaBounds are the fewest and the most replicas any confined write may give a managed
// Deployment: the operator's write of the Deployment, and a scaler's of its scale subresource
// (ScalerPolicyObjects). Whatever else tells a workload the bound (the autoscaler's parameters)
// is rendered from these, so that no count one identity may set locks the other out.
func (d *Descriptor) ReplicaBounds() (min, max int64) {
	return minReplicas, d.MaxReplicas
}

// replicasWithin checks that the admitted object's spec.replicas is within ReplicaBounds, reading
// an omitted count as omitted: what the server stores for it (1 for a Deployment, which the
// server defaults; 0 for an autoscaling/v1 Scale, whose count is omitted when zero).
func (d *Descriptor) replicasWithin(omitted int64) (expression, message string) {
	min, max := d.ReplicaBounds()
	replicas := `object.spec.?replicas.orValue(` + celInt(omitted) + `)`
	return allOf(replicas+` >= `+celInt(min), replicas+` <= `+celInt(max)),
		"may have " + celInt(min) + " to " + celInt(max) + " replicas"
}

func kindOf(kind string) operator.Kind {
	k, _ := operator.KindOf(kind)
	return k
}
