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

package kops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestServiceAccountRolesField(t *testing.T) {
	spec := func(key string, value interface{}) UnmodeledField {
		return UnmodeledField{Path: FieldPath{{Key: "spec"}, {Key: key}}, Value: value}
	}
	entry := map[string]interface{}{"name": "uploader", "namespace": "media"}
	tests := []struct {
		name      string
		unmodeled Unmodeled
		want      string
	}{
		{"nothing", nil, ""},
		{"components", Unmodeled{spec("iam", map[string]interface{}{"useServiceAccountExternalPermissions": true})},
			"spec.iam.useServiceAccountExternalPermissions"},
		{"components off", Unmodeled{spec("iam", map[string]interface{}{"useServiceAccountExternalPermissions": false})}, ""},
		{"a string is no switch", Unmodeled{spec("iam", map[string]interface{}{"useServiceAccountExternalPermissions": "true"})}, ""},
		{"workloads", Unmodeled{spec("iam", map[string]interface{}{"serviceAccountExternalPermissions": []interface{}{entry}})},
			"spec.iam.serviceAccountExternalPermissions"},
		{"empty list", Unmodeled{spec("iam", map[string]interface{}{"serviceAccountExternalPermissions": []interface{}{}})}, ""},
		{"stored deeper", Unmodeled{{Path: FieldPath{{Key: "spec"}, {Key: "iam"}, {Key: "useServiceAccountExternalPermissions"}}, Value: true}},
			"spec.iam.useServiceAccountExternalPermissions"},
		{"iam not a map", Unmodeled{spec("iam", "yes")}, ""},
		{"another field", Unmodeled{spec("iamx", map[string]interface{}{"useServiceAccountExternalPermissions": true})}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cluster{Unmodeled: tt.unmodeled}
			assert.Equal(t, tt.want, c.ServiceAccountRolesField())
		})
	}
}
