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

package commands

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/apis/kops"
)

const clusterDoc = `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: c.example.com
spec:
  kubernetesVersion: 1.30.0
  kubeDNS:
    provider: KubeDNS
    upstreamNameservers:
    - 1.1.1.1
  subnets:
  - name: a
    zone: us-east-2a
  - name: b
    zone: us-east-2b
  someKopsField:
    kept: true
`

const groupDoc = `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes-us-east-2a
spec:
  role: Node
  minSize: 1
  maxSize: 1
`

// at reads the value at a path of keys and list indexes from a YAML document.
func at(t *testing.T, doc []byte, path ...interface{}) interface{} {
	var v interface{}
	require.NoError(t, yaml.Unmarshal(doc, &v))
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]interface{})
			require.True(t, ok, "%v is not an object at %q", v, k)
			v = m[k]
		case int:
			l, ok := v.([]interface{})
			require.True(t, ok, "%v is not a list at [%d]", v, k)
			require.Less(t, k, len(l))
			v = l[k]
		}
	}
	return v
}

func TestSetFields(t *testing.T) {
	clusterType := reflect.TypeOf(kops.Cluster{})
	cases := []struct {
		name         string
		doc          string
		sets, unsets []string
		path         []interface{}
		want         interface{}
	}{
		{name: "a string field", sets: []string{"spec.kubeDNS.provider=CoreDNS"}, path: []interface{}{"spec", "kubeDNS", "provider"}, want: "CoreDNS"},
		{name: "kops's prefix is dropped", sets: []string{"cluster.spec.kubeDNS.provider=CoreDNS"}, path: []interface{}{"spec", "kubeDNS", "provider"}, want: "CoreDNS"},
		{name: "typed by its field: a version stays a string", sets: []string{"spec.kubernetesVersion=1.30"}, path: []interface{}{"spec", "kubernetesVersion"}, want: "1.30"},
		{name: "objects on the way are made", sets: []string{"spec.assets.containerRegistry=registry.example.com"}, path: []interface{}{"spec", "assets", "containerRegistry"}, want: "registry.example.com"},
		{name: "a list gets items appended", sets: []string{"spec.kubeDNS.upstreamNameservers=8.8.8.8,9.9.9.9"}, path: []interface{}{"spec", "kubeDNS", "upstreamNameservers"},
			want: []interface{}{"1.1.1.1", "8.8.8.8", "9.9.9.9"}},
		{name: "unset then set replaces a list", unsets: []string{"spec.kubeDNS.upstreamNameservers"}, sets: []string{"spec.kubeDNS.upstreamNameservers=8.8.8.8"},
			path: []interface{}{"spec", "kubeDNS", "upstreamNameservers"}, want: []interface{}{"8.8.8.8"}},
		{name: "a map entry", sets: []string{"spec.kubeDNS.podAnnotations=team=dns"}, path: []interface{}{"spec", "kubeDNS", "podAnnotations", "team"}, want: "dns"},
		{name: "a map of lists", sets: []string{"spec.kubeDNS.stubDomains=corp.example=10.0.0.1,10.0.0.2"}, path: []interface{}{"spec", "kubeDNS", "stubDomains", "corp.example"},
			want: []interface{}{"10.0.0.1", "10.0.0.2"}},
		{name: "an item's field", sets: []string{"spec.subnets[1].zone=us-east-2c"}, path: []interface{}{"spec", "subnets", 1, "zone"}, want: "us-east-2c"},
		{name: "[N] at the end appends an item", sets: []string{"spec.subnets[2].name=c"}, path: []interface{}{"spec", "subnets", 2, "name"}, want: "c"},
		{name: "[*] is every item", sets: []string{"spec.subnets[*].type=Public"}, path: []interface{}{"spec", "subnets", 1, "type"}, want: "Public"},
		{name: "an empty object", sets: []string{"spec.authorization.rbac="}, path: []interface{}{"spec", "authorization", "rbac"}, want: map[string]interface{}{}},
		{name: "unset a field", unsets: []string{"spec.kubeDNS.provider"}, path: []interface{}{"spec", "kubeDNS", "provider"}, want: nil},
		{name: "unset a missing field does nothing", unsets: []string{"spec.assets.containerRegistry"}, path: []interface{}{"spec", "kubeDNS", "provider"}, want: "KubeDNS"},
		{name: "unset a field this build does not model, when the document has it", unsets: []string{"spec.someKopsField"}, path: []interface{}{"spec", "someKopsField"}, want: nil},
		{name: "fields not named are kept", sets: []string{"spec.kubeDNS.provider=CoreDNS"}, path: []interface{}{"spec", "someKopsField", "kept"}, want: true},
		{name: "an integer", doc: groupDoc, sets: []string{"spec.maxSize=3"}, path: []interface{}{"spec", "maxSize"}, want: float64(3)},
		{name: "a boolean", sets: []string{"spec.serviceAccountTokens.automountDefault=false"}, path: []interface{}{"spec", "serviceAccountTokens", "automountDefault"}, want: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, typ := clusterDoc, clusterType
			if tc.doc != "" {
				doc, typ = tc.doc, reflect.TypeOf(kops.InstanceGroup{})
			}
			out, err := SetFields([]byte(doc), typ, tc.sets, tc.unsets)
			require.NoError(t, err)
			assert.Equal(t, tc.want, at(t, out, tc.path...))
		})
	}
}

// TestSetFieldsRefuses: every problem of every flag is named with its flag and field path, at
// once; nothing is returned to store.
func TestSetFieldsRefuses(t *testing.T) {
	cases := []struct {
		name         string
		doc          string
		sets, unsets []string
		want         []string
	}{
		{name: "no value", sets: []string{"spec.kubeDNS.provider"}, want: []string{`--set spec.kubeDNS.provider: Invalid value: "spec.kubeDNS.provider": must be FIELD=VALUE`}},
		{name: "a near name is suggested", sets: []string{"spec.kubeDNS.provder=CoreDNS"}, want: []string{`--set spec.kubeDNS.provder=CoreDNS: spec.kubeDNS.provder: Invalid value: "provder": unknown field; did you mean "provider"?`}},
		{name: "a field this build does not model", sets: []string{"spec.etcdClusters[0].name=main"}, want: []string{"spec.etcdClusters: Invalid value: \"etcdClusters\": not a field this build models"}},
		{name: "a number field", doc: groupDoc, sets: []string{"spec.maxSize=three"}, want: []string{`spec.maxSize: Invalid value: "three": must be an integer of 32 bits`}},
		{name: "a boolean field", sets: []string{"spec.serviceAccountTokens.automountDefault=yes please"}, want: []string{`spec.serviceAccountTokens.automountDefault: Invalid value: "yes please": must be true or false`}},
		{name: "an object given a value", sets: []string{"spec.kubeDNS=CoreDNS"}, want: []string{`spec.kubeDNS: Invalid value: "CoreDNS": is an object: set its fields`}},
		{name: "a map given no key", sets: []string{"spec.kubeDNS.podAnnotations=team"}, want: []string{`spec.kubeDNS.podAnnotations: Invalid value: "team": is a map: the value must be KEY=VALUE`}},
		{name: "a string has no fields", sets: []string{"spec.kubernetesVersion.major=1"}, want: []string{"spec.kubernetesVersion.major: Invalid value: \"major\": spec.kubernetesVersion is a string, which has no fields"}},
		{name: "an index past the end", sets: []string{"spec.subnets[5].name=x"}, want: []string{`spec.subnets[5]: Invalid value: 5: the list has 2 items: [2] appends one`}},
		{name: "an index on an object", sets: []string{"spec.kubeDNS[0]=x"}, want: []string{"spec.kubeDNS is an object, not a list"}},
		{name: "a bad index", sets: []string{"spec.subnets[x].name=a"}, want: []string{`"subnets[x]": an index is [N] or [*]`}},
		{name: "a path out of the document", sets: []string{"../x=1"}, want: []string{`"" is not a field name`}},
		{name: "unset a list item", unsets: []string{"spec.subnets[0]"}, want: []string{"--unset removes a field, not a list item"}},
		{name: "unset an unknown field", unsets: []string{"spec.kubeDNS.provder"}, want: []string{`did you mean "provider"?`}},
		{name: "every problem at once", sets: []string{"spec.kubeDNS.provder=x", "spec.kubernetesVersion.major=1"}, unsets: []string{"spec.subnets[0]"},
			want: []string{"--unset spec.subnets[0]: ", "--set spec.kubeDNS.provder=x: ", "--set spec.kubernetesVersion.major=1: "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, typ := clusterDoc, reflect.TypeOf(kops.Cluster{})
			if tc.doc != "" {
				doc, typ = tc.doc, reflect.TypeOf(kops.InstanceGroup{})
			}
			out, err := SetFields([]byte(doc), typ, tc.sets, tc.unsets)
			require.Error(t, err)
			assert.Nil(t, out)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Equal(t, len(tc.sets)+len(tc.unsets), strings.Count(err.Error(), "\n")+1, "one line per flag: %s", err)
		})
	}
}
