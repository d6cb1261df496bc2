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

package kopscodecs

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

const minimalCluster = `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: minimal.k8s.local
spec:
  cloudProvider: aws
  kubernetesVersion: 1.34.2
  kubeDNS:
    provider: CoreDNS
    cpuRequest: 150m
    stubDomains:
      example.com: ["10.0.0.2"]
`

func TestDecodeModeledFields(t *testing.T) {
	objs, warnings, err := Decode("cluster.yaml", []byte(minimalCluster), false)
	require.NoError(t, err)
	require.Len(t, objs, 1)
	c := objs[0].Cluster
	require.NotNil(t, c)
	assert.Empty(t, warnings)
	assert.Equal(t, "minimal.k8s.local", c.Name)
	assert.Equal(t, "aws", c.Spec.CloudProvider)
	require.NotNil(t, c.Spec.KubeDNS)
	assert.Equal(t, "150m", c.Spec.KubeDNS.CPURequest.String())
	assert.Equal(t, []string{"10.0.0.2"}, c.Spec.KubeDNS.StubDomains["example.com"])
	assert.Empty(t, c.Unmodeled)
}

// kops's additionalUserData is modeled: the launch template carries it, so it must be read as
// typed parts, not kept aside, and written back as it came.
func TestDecodeAdditionalUserData(t *testing.T) {
	input := `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
  labels:
    kops.k8s.io/cluster: minimal.k8s.local
spec:
  role: Node
  additionalUserData:
  - name: bootstrap.sh
    type: text/x-shellscript
    content: |
      #!/bin/sh
      echo hello
`
	objs, warnings, err := Decode("ig.yaml", []byte(input), false)
	require.NoError(t, err)
	require.Len(t, objs, 1)
	g := objs[0].InstanceGroup
	require.NotNil(t, g)
	assert.Empty(t, warnings)
	assert.Empty(t, g.Unmodeled)
	require.Len(t, g.Spec.AdditionalUserData, 1)
	assert.Equal(t, "text/x-shellscript", g.Spec.AdditionalUserData[0].Type)
	assert.Equal(t, "#!/bin/sh\necho hello\n", g.Spec.AdditionalUserData[0].Content)

	encoded, err := EncodeInstanceGroup(g)
	require.NoError(t, err)
	assertSameYAML(t, []byte(input), encoded)
}

func TestDecodeKeepsUnmodeledFields(t *testing.T) {
	data, err := os.ReadFile("testdata/kops-written-cluster.yaml")
	require.NoError(t, err)

	objs, warnings, err := Decode("config", data, false)
	require.NoError(t, err)
	require.Len(t, objs, 1)
	c := objs[0].Cluster
	require.NotNil(t, c)

	var paths []string
	for _, f := range c.Unmodeled {
		paths = append(paths, f.Path.String())
	}
	assert.Equal(t, []string{
		"spec.api", "spec.etcdClusters", "spec.iam", "spec.kubeDNS.nodeLocalDNS", "spec.kubeProxy",
		"spec.kubelet", "spec.kubernetesApiAccess", "spec.networkID", "spec.networking.cilium.enableNodePort",
		"spec.topology",
	}, paths)
	require.Len(t, warnings, len(paths), "one warning per unmodeled field")
	assert.Equal(t, "config:27: Cluster \"legacy.example.com\": field spec.kubeDNS.nodeLocalDNS is not modeled by this build; it is kept as written", warnings[3].String())

	encoded, err := EncodeCluster(c)
	require.NoError(t, err)
	assertSameYAML(t, data, encoded)
}

func TestDecodeRoundTripAfterChange(t *testing.T) {
	data, err := os.ReadFile("testdata/kops-written-cluster.yaml")
	require.NoError(t, err)
	objs, _, err := Decode("config", data, false)
	require.NoError(t, err)
	c := objs[0].Cluster
	c.Spec.KubeDNS.Provider = "CoreDNS"
	c.Spec.KubeDNS.Domain = "corp.local"

	encoded, err := EncodeCluster(c)
	require.NoError(t, err)
	var tree map[string]interface{}
	require.NoError(t, yaml.Unmarshal(encoded, &tree))
	kubeDNS := tree["spec"].(map[string]interface{})["kubeDNS"].(map[string]interface{})
	assert.Equal(t, "corp.local", kubeDNS["domain"])
	assert.Equal(t, map[string]interface{}{"enabled": true}, kubeDNS["nodeLocalDNS"], "unmodeled sibling kept")
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name        string
		input       string
		allowAddons bool
		want        []string
	}{
		{
			name:  "malformed yaml",
			input: "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: [\n",
			want:  []string{"in.yaml: document 1: malformed YAML:"},
		},
		{
			name:  "missing kind",
			input: "apiVersion: kops.k8s.io/v1alpha2\nmetadata:\n  name: a.b\n",
			want:  []string{"in.yaml:1: document 1: apiVersion and kind are required"},
		},
		{
			name:  "unknown version",
			input: "apiVersion: kops.k8s.io/v1alpha3\nkind: Cluster\nmetadata:\n  name: a.b\n",
			want:  []string{`in.yaml:1: document 1 (Cluster "a.b"): apiVersion "kops.k8s.io/v1alpha3" is not supported for kind Cluster; use kops.k8s.io/v1alpha2`},
		},
		{
			name:  "unknown kops kind",
			input: "apiVersion: kops.k8s.io/v1alpha2\nkind: Keyset\nmetadata:\n  name: a\n",
			want:  []string{`kind "Keyset" of kops.k8s.io/v1alpha2 is not supported`},
		},
		{
			name:  "other object in a store file",
			input: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
			want:  []string{"kind ConfigMap (v1) is not expected here: only a Cluster or an InstanceGroup is"},
		},
		{
			name:  "SSHCredential in a store file",
			input: "apiVersion: kops.k8s.io/v1alpha2\nkind: SSHCredential\nmetadata:\n  name: admin\nspec:\n  publicKey: x\n",
			want:  []string{"kind SSHCredential is accepted by 'kops create -f' only"},
		},
		{
			name:        "SSHCredential field it does not have",
			input:       "apiVersion: kops.k8s.io/v1alpha2\nkind: SSHCredential\nmetadata:\n  name: admin\nspec:\n  publicKey: x\n  privateKey: y\n",
			allowAddons: true,
			want:        []string{`in.yaml:7: document 1 (SSHCredential "admin"): spec.privateKey: Unsupported value: "privateKey": supported values: "spec.publicKey"`},
		},
		{
			name:        "SSHCredential of another version",
			input:       "apiVersion: kops.k8s.io/v1alpha3\nkind: SSHCredential\nmetadata:\n  name: admin\n",
			allowAddons: true,
			want:        []string{`apiVersion "kops.k8s.io/v1alpha3" is not supported for kind SSHCredential`},
		},
		{
			name:        "addon without a name",
			input:       "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
			allowAddons: true,
			want:        []string{"metadata.name is required"},
		},
		{
			name: "wrong types, all at once, with lines",
			input: `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
spec:
  minSize: two
  maxSize: 3000000000
  subnets: us-east-2a
  machineType: 12
`,
			want: []string{
				`in.yaml:6: document 1 (InstanceGroup "nodes"): spec.minSize: Invalid value: "two": must be an integer`,
				`in.yaml:7: document 1 (InstanceGroup "nodes"): spec.maxSize: Invalid value: "3000000000": out of range for a 32-bit integer`,
				`in.yaml:8: document 1 (InstanceGroup "nodes"): spec.subnets: Invalid value: "us-east-2a": must be a list`,
				`in.yaml:9: document 1 (InstanceGroup "nodes"): spec.machineType: Invalid value: "12": must be a string; put the value in quotes`,
			},
		},
		{
			name: "typo of a modeled field",
			input: `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: a.b
spec:
  kubeDSN:
    provider: CoreDNS
`,
			want: []string{`in.yaml:6: document 1 (Cluster "a.b"): spec.kubeDSN: Invalid value: "kubeDSN": unknown field; did you mean "kubeDNS"?`},
		},
		{
			name: "case slip of a modeled field",
			input: `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: a.b
spec:
  kubeDNS:
    serverIp: 100.64.0.10
`,
			want: []string{`spec.kubeDNS.serverIp: Invalid value: "serverIp": unknown field; did you mean "serverIP"?`},
		},
		{
			name: "bad quantity",
			input: `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: a.b
spec:
  kubeDNS:
    memoryLimit: lots
`,
			want: []string{`in.yaml:7: document 1 (Cluster "a.b"): spec.kubeDNS.memoryLimit: Invalid value: "lots": quantities must match the regular expression`},
		},
		{
			name: "unknown field in a Kubernetes type",
			input: `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: a.b
  labelz: {}
spec:
  kubeDNS:
    tolerations:
    - key: a
      effekt: NoSchedule
`,
			want: []string{
				`in.yaml:5: document 1 (Cluster "a.b"): metadata.labelz: Invalid value: "labelz": unknown field; did you mean "labels"?`,
				`in.yaml:10: document 1 (Cluster "a.b"): spec.kubeDNS.tolerations[0].effekt: Invalid value: "effekt": unknown field; did you mean "effect"?`,
			},
		},
		{
			name:  "problems in two documents",
			input: "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: a.b\nspec:\n  channel: 3\n---\napiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: ig\nspec:\n  role: [x]\n",
			want: []string{
				`in.yaml:6: document 1 (Cluster "a.b"): spec.channel: Invalid value: "3": must be a string`,
				`in.yaml:13: document 2 (InstanceGroup "ig"): spec.role: Invalid value: "a list": must be a string`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			objs, _, err := Decode("in.yaml", []byte(tc.input), tc.allowAddons)
			require.Error(t, err)
			assert.Nil(t, objs)
			var decodeErr *DecodeError
			require.ErrorAs(t, err, &decodeErr)
			require.Len(t, decodeErr.Problems, len(tc.want), err.Error())
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

// kops create -f accepts SSHCredential and any other Kubernetes object next to the cluster.
func TestDecodeCreateInput(t *testing.T) {
	input := minimalCluster + `---
apiVersion: kops.k8s.io/v1alpha2
kind: SSHCredential
metadata:
  name: admin
  labels:
    kops.k8s.io/cluster: minimal.k8s.local
spec:
  publicKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9nZm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA admin
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  qps: 500
profiles:
- schedulerName: default-scheduler
`
	objs, warnings, err := Decode("in.yaml", []byte(input), true)
	require.NoError(t, err)
	assert.Empty(t, warnings)
	require.Len(t, objs, 3)
	require.NotNil(t, objs[1].SSHCredential)
	assert.Equal(t, "minimal.k8s.local", objs[1].SSHCredential.Labels["kops.k8s.io/cluster"])
	assert.Contains(t, objs[1].SSHCredential.Spec.PublicKey, "ssh-ed25519 ")
	require.NotNil(t, objs[2].Addon)
	assert.Equal(t, "KubeSchedulerConfiguration", objs[2].Addon.GetKind())
}

func TestDecodeStream(t *testing.T) {
	input := minimalCluster + `---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
  labels:
    kops.k8s.io/cluster: minimal.k8s.local
spec:
  role: Node
  minSize: 2
---
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: kube-system
data:
  key: value
`
	objs, _, err := Decode("in.yaml", []byte(input), true)
	require.NoError(t, err)
	require.Len(t, objs, 3, "the empty document is skipped")
	assert.NotNil(t, objs[0].Cluster)
	require.NotNil(t, objs[1].InstanceGroup)
	assert.Equal(t, int32(2), *objs[1].InstanceGroup.Spec.MinSize)
	assert.Equal(t, `document 2 (InstanceGroup "nodes")`, objs[1].Describe())
	require.NotNil(t, objs[2].Addon)
	assert.Equal(t, "extra", objs[2].Addon.GetName())
	assert.Equal(t, `document 4 (ConfigMap "extra")`, objs[2].Describe())
}

func TestFieldErrorsCarryLines(t *testing.T) {
	objs, _, err := Decode("in.yaml", []byte(minimalCluster), false)
	require.NoError(t, err)
	errs := field.ErrorList{
		field.NotSupported(field.NewPath("spec", "kubeDNS", "provider"), "CoreDSN", []string{"CoreDNS"}),
		field.Invalid(field.NewPath("spec", "kubeDNS", "stubDomains").Key("example.com").Index(0), "x", "bad"),
		field.Required(field.NewPath("spec", "kubeDNS", "serverIP"), ""),
		field.Required(field.NewPath("spec", "networkCIDR"), ""),
	}
	got := objs[0].FieldErrors(errs).Error()
	assert.Contains(t, got, `in.yaml:9: document 1 (Cluster "minimal.k8s.local"): spec.kubeDNS.provider: Unsupported value: "CoreDSN"`)
	assert.Contains(t, got, `in.yaml:12: document 1 (Cluster "minimal.k8s.local"): spec.kubeDNS.stubDomains[example.com][0]`)
	assert.Contains(t, got, `in.yaml:8: document 1 (Cluster "minimal.k8s.local"): spec.kubeDNS.serverIP: Required value`, "a missing field points at its parent")
	assert.Contains(t, got, `in.yaml:5: document 1 (Cluster "minimal.k8s.local"): spec.networkCIDR`)
	assert.NoError(t, objs[0].FieldErrors(nil))
}

// assertSameYAML compares two YAML documents as data, ignoring key order and comments.
func assertSameYAML(t *testing.T, want, got []byte) {
	t.Helper()
	var w, g interface{}
	require.NoError(t, yaml.Unmarshal(want, &w))
	require.NoError(t, yaml.Unmarshal(got, &g))
	assert.Equal(t, w, g)
}

func TestWarningString(t *testing.T) {
	assert.Equal(t, "c.yaml:3: x", Warning{Source: "c.yaml", Line: 3, Text: "x"}.String())
	assert.Equal(t, "KOPS_FEATURE_FLAGS: x", Warning{Source: "KOPS_FEATURE_FLAGS", Text: "x"}.String(), "no :0 without a line")
}
