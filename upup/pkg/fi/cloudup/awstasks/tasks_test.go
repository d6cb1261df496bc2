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

package awstasks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
)

func sampleTemplate() *LaunchTemplate {
	return &LaunchTemplate{
		Name: "nodes.a.example.com", ImageID: "ami-0123456789abcdef0", InstanceType: "t3.medium",
		RootVolume:      RootVolume{DeviceName: "/dev/xvda", SizeGB: 128, Type: "gp3", IOPS: 3000, Throughput: 125, Encrypted: true},
		Metadata:        MetadataOptions{HTTPTokens: "required", HopLimit: 1},
		UserData:        []byte("#cloud-config\n"),
		InstanceProfile: "nodes.a.example.com",
		Tags:            map[string]string{"KubernetesCluster": "a.example.com", "kops.k8s.io/instancegroup": "nodes"},
	}
}

func TestDependencies(t *testing.T) {
	tests := []struct {
		task fi.Task
		key  fi.TaskKey
		deps []fi.TaskKey
	}{
		{&IAMRole{Name: "nodes.a"}, fi.TaskKey{Kind: "IAMRole", Name: "nodes.a"}, nil},
		{&IAMInstanceProfile{Name: "nodes.a", Role: "nodes.a"}, fi.TaskKey{Kind: "IAMInstanceProfile", Name: "nodes.a"},
			[]fi.TaskKey{{Kind: "IAMRole", Name: "nodes.a"}}},
		{&IAMRolePolicy{Name: "nodes.a", Role: "nodes.a"}, fi.TaskKey{Kind: "IAMRolePolicy", Name: "nodes.a"},
			[]fi.TaskKey{{Kind: "IAMRole", Name: "nodes.a"}}},
		{&IAMRole{Name: "sa.a", WebIdentity: &WebIdentity{Issuer: "https://d.example.com/a", Provider: "a"}},
			fi.TaskKey{Kind: "IAMRole", Name: "sa.a"}, []fi.TaskKey{{Kind: "IAMOIDCProvider", Name: "a"}}},
		{&IAMRole{Name: "sa.b", WebIdentity: &WebIdentity{Issuer: "https://d.example.com/a"}},
			fi.TaskKey{Kind: "IAMRole", Name: "sa.b"}, nil},
		{&IAMOIDCProvider{Name: "a"}, fi.TaskKey{Kind: "IAMOIDCProvider", Name: "a"}, nil},
		{&IAMRolePolicyAttachment{Name: "external-sa.a", Role: "sa.a"}, fi.TaskKey{Kind: "IAMRolePolicyAttachment", Name: "external-sa.a"},
			[]fi.TaskKey{{Kind: "IAMRole", Name: "sa.a"}}},
		{sampleTemplate(), fi.TaskKey{Kind: "LaunchTemplate", Name: "nodes.a.example.com"},
			[]fi.TaskKey{{Kind: "IAMInstanceProfile", Name: "nodes.a.example.com"}}},
	}
	for _, tc := range tests {
		t.Run(tc.key.String(), func(t *testing.T) {
			assert.Equal(t, tc.key, tc.task.Key())
			assert.Equal(t, tc.deps, tc.task.Dependencies())
		})
	}
}

func fieldMap(t *testing.T, task fi.Task) map[string]string {
	t.Helper()
	change, err := task.Plan(context.Background(), &fi.Context{})
	require.NoError(t, err)
	require.Equal(t, fi.ActionCreate, change.Action, "without cloud access a cloud task shows itself as to be ensured")
	out := map[string]string{}
	for _, f := range change.Fields {
		assert.Empty(t, f.Old)
		out[f.Name] = f.New
	}
	return out
}

func TestPlanShowsEveryField(t *testing.T) {
	fields := fieldMap(t, sampleTemplate())
	assert.Equal(t, "endpoint enabled, tokens required, hop limit 1, IPv6 endpoint disabled", fields["MetadataOptions"])
	assert.Equal(t, "/dev/xvda 128 GB gp3, 3000 IOPS, 125 MiB/s, encrypted", fields["RootVolume"])
	assert.Equal(t, "ami-0123456789abcdef0", fields["ImageID"])
	assert.Equal(t, "t3.medium", fields["InstanceType"])
	assert.Equal(t, "nodes.a.example.com", fields["InstanceProfile"])
	assert.Equal(t, "KubernetesCluster=a.example.com, kops.k8s.io/instancegroup=nodes", fields["Tags"])
	assert.Contains(t, fields["UserData"], "14 bytes, sha256 ")

	policy := &IAMRolePolicy{Name: "nodes.a", Role: "nodes.a", PolicyDocument: &PolicyDocument{Version: PolicyVersion, Statement: []Statement{{
		Effect: "Allow", Action: []string{"sts:AssumeRole"}, Resource: []string{"arn:aws:iam::123456789012:role/*"},
	}, {
		Effect: "Allow", Action: []string{"ec2:CreateRoute", "ec2:DeleteRoute"}, Resource: []string{"*"},
		Condition: map[string]map[string][]string{"StringEquals": {"aws:ResourceTag/KubernetesCluster": {"a"}}},
	}}}}
	fields = fieldMap(t, policy)
	assert.Equal(t, "Allow sts:AssumeRole on arn:aws:iam::123456789012:role/*", fields["Statement[0]"])
	assert.Equal(t, "Allow ec2:CreateRoute,ec2:DeleteRoute on * if StringEquals aws:ResourceTag/KubernetesCluster=a", fields["Statement[1]"])

	role := &IAMRole{Name: "nodes.a", AssumeRolePolicy: EC2AssumeRolePolicy()}
	assert.Equal(t, "Allow sts:AssumeRole by ec2.amazonaws.com", fieldMap(t, role)["AssumeRolePolicy[0]"])
}

func TestMetadataOptionsIPv6(t *testing.T) {
	lt := sampleTemplate()
	lt.Metadata = MetadataOptions{HTTPTokens: "optional", HopLimit: 2, IPv6: true}
	assert.Equal(t, "endpoint enabled, tokens optional, hop limit 2, IPv6 endpoint enabled", fieldMap(t, lt)["MetadataOptions"])
	body := lt.terraformBody(nil)
	assert.Equal(t, "enabled", body.MetadataOptions.HTTPProtocolIPv6)
	assert.Equal(t, "optional", body.MetadataOptions.HTTPTokens)
	assert.Equal(t, int64(2), *body.MetadataOptions.HTTPPutResponseHopLimit)
	assert.Equal(t, "enabled", body.MetadataOptions.HTTPEndpoint)
}

func TestTerraformBodyRefersToProfile(t *testing.T) {
	body := sampleTemplate().terraformBody(nil)
	assert.Equal(t, "aws_iam_instance_profile.nodes-a-example-com.id", body.IAMInstanceProfile.Name.String())
	require.Len(t, body.TagSpecifications, 3)
	assert.Equal(t, "a.example.com", body.TagSpecifications[0].Tags["KubernetesCluster"], "instances carry the cluster tag")
	body.Tags["KubernetesCluster"] = "changed"
	assert.Equal(t, "a.example.com", sampleTemplate().Tags["KubernetesCluster"], "the body does not share the task's map")
}

// A group's own profile (spec.iam.profile) is named as is, as kops names it, and waited for by no task.
func TestTerraformBodyNamesAnExistingProfile(t *testing.T) {
	lt := sampleTemplate()
	lt.InstanceProfile, lt.ExistingProfile = "custom-nodes", true
	assert.Equal(t, `"custom-nodes"`, lt.terraformBody(nil).IAMInstanceProfile.Name.String())
	assert.Empty(t, lt.Dependencies())
	assert.Equal(t, "custom-nodes (existing, spec.iam.profile)", fieldMap(t, lt)["InstanceProfile"])
}

func TestPolicyJSON(t *testing.T) {
	data, err := EC2AssumeRolePolicy().JSON()
	require.NoError(t, err)
	assert.Equal(t, `{
  "Statement": [
    {
      "Action": [
        "sts:AssumeRole"
      ],
      "Effect": "Allow",
      "Principal": {
        "Service": "ec2.amazonaws.com"
      }
    }
  ],
  "Version": "2012-10-17"
}
`, string(data))
}
