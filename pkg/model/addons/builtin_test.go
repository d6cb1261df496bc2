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

package addons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every registry entry with a built-in addon gets its BuiltInBuilder, and every built-in addon
// comes before every operator in the channel: the takeover of a built-in addon is applied before
// the operator that takes its objects over.
func TestDefaultBuildersPutBuiltInAddonsBeforeOperators(t *testing.T) {
	var wantBuiltIn []string
	for _, o := range Operators() {
		if o.BuiltIn != nil {
			wantBuiltIn = append(wantBuiltIn, o.BuiltIn.Name)
		}
	}
	require.NotEmpty(t, wantBuiltIn, "the registry has built-in addons to check")

	var builtIn []string
	firstOperator := -1
	for i, b := range DefaultBuilders() {
		switch b := b.(type) {
		case BuiltInBuilder:
			assert.Equal(t, -1, firstOperator, "built-in addon %s after an operator", b.BuiltIn.Name)
			builtIn = append(builtIn, b.Owns()...)
		case OperatorBuilder:
			if firstOperator < 0 {
				firstOperator = i
			}
		}
	}
	assert.Equal(t, wantBuiltIn, builtIn)
	assert.GreaterOrEqual(t, firstOperator, 0, "the operators are built")
}
