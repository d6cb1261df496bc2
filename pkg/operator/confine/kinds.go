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
	"Deployment": func(d *Descriptor) (string, string) {
		max := celInt(d.MaxReplicas)
		return `object.spec.?replicas.orValue(1) >= 1 && object.spec.?replicas.orValue(1) <= ` + max,
			"may have 1 to " + max + " replicas"
	},
}

func kindOf(kind string) operator.Kind {
	k, _ := operator.KindOf(kind)
	return k
}
