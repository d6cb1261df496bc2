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

package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The probe annotation is one JSON object: anything after it (a second object, a stray brace) is
// refused rather than ignored.
func TestParseEnforcementProbeIsOneValue(t *testing.T) {
	good := `{"user":"system:serviceaccount:ns:sa","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","namespace":"ns"}}}`
	cases := map[string]struct {
		value string
		want  string
	}{
		"one object":                  {good, ""},
		"surrounded by blanks":        {" \n" + good + "\n\t ", ""},
		"a second object":             {good + `{"user":"someone-else"}`, "one JSON object, with nothing after it"},
		"a second object on its line": {good + "\n" + good, "one JSON object, with nothing after it"},
		"a stray brace":               {good + "}", "one JSON object, with nothing after it"},
		"text after it":               {good + " trailing", "one JSON object, with nothing after it"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := ParseEnforcementProbe(tc.value)
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, "system:serviceaccount:ns:sa", p.User)
				return
			}
			assert.ErrorContains(t, err, tc.want)
			assert.Nil(t, p)
		})
	}
}
