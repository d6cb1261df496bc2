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

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The flags are checked before any connection is attempted.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"other watch namespace", []string{"--watch-namespace=default"}, "--watch-namespace=default: the operator manages CoreDNS in kube-system only"},
		{"bad facts", []string{`--cluster-facts={"memoryLimit":"lots"}`}, `invalid value "{\"memoryLimit\":\"lots\"}" for flag -cluster-facts: the CoreDNS facts are refused: memoryLimit: "lots" is not a quantity`},
		{"facts with a typo", []string{`--cluster-facts={"memoryLimits":"1Gi"}`}, `unknown field "memoryLimits"`},
		{"stray argument", []string{"--leader-elect=false", "extra"}, `unexpected arguments ["extra"]`},
		{"unknown flag", []string{"--metrics-bind-address=:8080"}, "flag provided but not defined: -metrics-bind-address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
