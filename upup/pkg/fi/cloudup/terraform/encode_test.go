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

package terraform

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testEBS struct {
	VolumeSize int64  `cty:"volume_size"`
	VolumeType string `cty:"volume_type"`
	Encrypted  *bool  `cty:"encrypted"`
}

type testMapping struct {
	DeviceName string   `cty:"device_name"`
	EBS        *testEBS `cty:"ebs"`
}

type testProfile struct {
	Name *Literal `cty:"name"`
}

type testBody struct {
	Name        string            `cty:"name"`
	Count       int               `cty:"count"`
	Enabled     bool              `cty:"enabled"`
	HopLimit    *int64            `cty:"hop_limit"`
	Optional    *string           `cty:"optional"`
	Profile     *testProfile      `cty:"iam_instance_profile"`
	Mappings    []testMapping     `cty:"block_device_mappings"`
	Tags        map[string]string `cty:"tags"`
	Zones       []string          `cty:"zones"`
	Groups      []*Literal        `cty:"security_groups"`
	Ref         *Literal          `cty:"role"`
	Ignored     string            `cty:"-"`
	notExported string
}

// render renders one resource and returns its block as written in kubernetes.tf.
func render(t *testing.T, body interface{}) string {
	t.Helper()
	target := NewTarget(Options{})
	require.NoError(t, target.RenderResource("aws_thing", "a-example-com", body))
	text := string(target.mainFile())
	start := strings.Index(text, `resource "aws_thing"`)
	require.GreaterOrEqual(t, start, 0, text)
	end := strings.Index(text[start:], "\n}\n")
	require.Greater(t, end, 0, text)
	return text[start : start+end+3]
}

func TestEncodeFieldKinds(t *testing.T) {
	hop := int64(1)
	yes := true
	tests := []struct {
		name string
		body interface{}
		want string
	}{
		{"zero values: plain scalars stay, nil and empty are left out", testBody{}, `resource "aws_thing" "a-example-com" {
  count   = 0
  enabled = false
}
`},
		{"every kind, written sorted by name", &testBody{
			Name: "nodes.a.example.com", Count: 2, Enabled: true, HopLimit: &hop, Ignored: "x", notExported: "y",
			Profile:  &testProfile{Name: LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "id")},
			Mappings: []testMapping{{DeviceName: "/dev/xvda", EBS: &testEBS{VolumeSize: 64, VolumeType: "gp3", Encrypted: &yes}}, {DeviceName: "/dev/sdb"}},
			Tags:     map[string]string{"kubernetes.io/cluster/a.example.com": "owned", "KubernetesCluster": "a.example.com", "Name": "${x}"},
			Zones:    []string{"b", "a"},
			Groups:   []*Literal{LiteralProperty("aws_security_group", "nodes-a-example-com", "id")},
			Ref:      LiteralProperty("aws_iam_role", "nodes-a-example-com", "name"),
		}, `resource "aws_thing" "a-example-com" {
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      encrypted   = true
      volume_size = 64
      volume_type = "gp3"
    }
  }
  block_device_mappings {
    device_name = "/dev/sdb"
  }
  count     = 2
  enabled   = true
  hop_limit = 1
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-a-example-com.id
  }
  name            = "nodes.a.example.com"
  role            = aws_iam_role.nodes-a-example-com.name
  security_groups = [aws_security_group.nodes-a-example-com.id]
  tags = {
    KubernetesCluster                     = "a.example.com"
    Name                                  = "$${x}"
    "kubernetes.io/cluster/a.example.com" = "owned"
  }
  zones = ["b", "a"]
}
`},
		{"numbers of every size, and floats in their shortest decimal form", struct {
			F  float64 `cty:"f"`
			F2 float32 `cty:"f2"`
			I  int32   `cty:"i"`
			U  uint8   `cty:"u"`
			U6 uint64  `cty:"u6"`
		}{F: 0.1, F2: 1.5, I: -3, U: 255, U6: math.MaxUint64}, `resource "aws_thing" "a-example-com" {
  f  = 0.1
  f2 = 1.5
  i  = -3
  u  = 255
  u6 = 18446744073709551615
}
`},
		{"empty but present map and list", struct {
			Tags  map[string]string `cty:"tags"`
			Zones []string          `cty:"zones"`
		}{Tags: map[string]string{}, Zones: []string{}}, `resource "aws_thing" "a-example-com" {
  tags  = {}
  zones = []
}
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, render(t, tc.body))
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name string
		body interface{}
		want string
	}{
		{"not a struct", "text", "body must be a struct"},
		{"nil pointer body", (*testBody)(nil), "body is a nil pointer"},
		{"field without tag", struct{ Name string }{"x"}, "aws_thing.a-example-com.Name: needs a `cty:\"name\"` tag"},
		{"tag that is no HCL name", struct {
			Name string `cty:"a b"`
		}{"x"}, `got "a b"`},
		{"two fields, one name", struct {
			A string `cty:"name"`
			B string `cty:"name"`
		}{"x", "y"}, `aws_thing.a-example-com.B: cty name "name" is also used by A`},
		{"unsupported type, with its path", struct {
			Profile testProfile `cty:"p"`
			Inner   struct {
				C chan int `cty:"c"`
			} `cty:"inner"`
		}{}, "aws_thing.a-example-com.Inner.C: type chan int cannot be written"},
		{"map of ints", struct {
			M map[string]int `cty:"m"`
		}{M: map[string]int{}}, "maps must be map[string]string"},
		{"nil block in a slice", struct {
			B []*testEBS `cty:"b"`
		}{B: []*testEBS{nil}}, "aws_thing.a-example-com.B[0]: nil block"},
		{"a number terraform does not read", struct {
			N float64 `cty:"n"`
		}{N: math.Inf(1)}, "aws_thing.a-example-com.N: +Inf is not a number terraform reads"},
		{"nil literal in a list", struct {
			L []*Literal `cty:"l"`
		}{L: []*Literal{nil}}, "B[0]: nil literal"[2:]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := NewTarget(Options{}).RenderResource("aws_thing", "a-example-com", tc.body)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestRenderResourceNames(t *testing.T) {
	target := NewTarget(Options{})
	body := testProfile{}
	require.NoError(t, target.RenderResource("aws_thing", ResourceName("nodes.a.example.com"), body))
	err := target.RenderResource("aws_thing", "nodes-a-example-com", body)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "aws_thing.nodes-a-example-com is rendered twice")

	for _, bad := range [][2]string{{"aws thing", "a"}, {"aws_thing", "1-a"}, {"aws_thing", "a.b"}, {"aws_thing", ""}} {
		err := target.RenderResource(bad[0], bad[1], body)
		assert.Error(t, err, "%q %q", bad[0], bad[1])
	}
}

func TestEncodeIsDeterministic(t *testing.T) {
	tags := map[string]string{}
	for _, k := range []string{"z", "a", "m", "b", "y", "c"} {
		tags[k] = k
	}
	first := render(t, testBody{Name: "x", Tags: tags})
	for range 20 {
		assert.Equal(t, first, render(t, testBody{Name: "x", Tags: tags}))
	}
}
