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

package kopsparity

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/tests/integration/golden"
	"k8s.io/kops/upup/pkg/fi/cloudup"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
	"k8s.io/kops/util/pkg/vfs"
)

// difference is an intended difference: facts (see facts) that match pattern are only kops's
// (kopsOnly) or only ours. In a pattern, {cluster} stands for the cluster name and {dashed} for it
// with dots turned to dashes. A difference no case shows is stale and fails the test.
type difference struct {
	pattern  string
	kopsOnly bool
	why      string
	// in is the one case the difference may show in; empty for any.
	in string
}

var intended = []difference{
	{`output (bastion|master|node)_autoscaling_group_ids`, true,
		"no autoscaling groups: this build writes launch templates, not the groups that use them", ""},
	{`output (node_subnet_ids|route_table_.*_id|subnet_.*_id|vpc_.*)`, true,
		"no network: kops's VPC, subnets and route tables stay kops's", ""},
	{`policy (masters\.{cluster}|aws-node-termination-handler\.kube-system\.sa\.\S+): sqs:(DeleteMessage|ReceiveMessage) on \*`, true,
		"tighter: the termination handler reads the cluster's queue only", ""},
	{`policy (masters\.{cluster}|aws-node-termination-handler\.kube-system\.sa\.\S+): sqs:(DeleteMessage|ReceiveMessage) on arn:aws:sqs:us-test-1:\*:{dashed}-nth`, false,
		"tighter: the termination handler reads the cluster's queue only", ""},
	{`policy (masters|nodes)\.{cluster}: ec2:ModifyNetworkInterfaceAttribute on \*`, true,
		"tighter: Calico turns off the source/destination check of the cluster's interfaces only (launch templates tag them)", ""},
	{`policy (masters|nodes)\.{cluster}: ec2:ModifyNetworkInterfaceAttribute on \* if StringEquals aws:ResourceTag/KubernetesCluster={cluster}`, false,
		"tighter: Calico turns off the source/destination check of the cluster's interfaces only (launch templates tag them)", ""},
	{`policy (masters\.{cluster}|aws-cloud-controller-manager\.kube-system\.sa\.\S+): iam:CreateServiceLinkedRole on \*`, true,
		"tighter: only ELB's service-linked role may be created", ""},
	{`policy (masters\.{cluster}|aws-cloud-controller-manager\.kube-system\.sa\.\S+): iam:CreateServiceLinkedRole on \* if StringEquals iam:AWSServiceName=elasticloadbalancing\.amazonaws\.com`, false,
		"tighter: only ELB's service-linked role may be created", ""},
	{`policy masters\.{cluster}: (autoscaling:(DescribeLaunchConfigurations|DescribeScalingActivities)|ec2:(DescribeImages|DescribeLaunchTemplateVersions|GetInstanceTypesFromInstanceRequirements)) on \*`, true,
		"tighter: the cluster autoscaler's rights only where it runs (spec.clusterAutoscaler.enabled)", ""},
	{`policy masters\.{cluster}: autoscaling:(SetDesiredCapacity|TerminateInstanceInAutoScalingGroup) on \* if StringEquals aws:ResourceTag/KubernetesCluster={cluster}`, true,
		"tighter: the cluster autoscaler's rights only where it runs (spec.clusterAutoscaler.enabled)", ""},
	{`policy (masters\.{cluster}|aws-load-balancer-controller\.kube-system\.sa\.\S+): elasticloadbalancing:SetRulePriorities on \*`, true,
		"tighter: the load balancer controller reorders the rules of the cluster's load balancers only, as its own reference policy has it", ""},
	{`policy (masters\.{cluster}|aws-load-balancer-controller\.kube-system\.sa\.\S+): elasticloadbalancing:SetRulePriorities on \* if StringEquals aws:ResourceTag/KubernetesCluster={cluster}`, false,
		"tighter: the load balancer controller reorders the rules of the cluster's load balancers only, as its own reference policy has it", ""},
	{`policy (masters\.{cluster}|ebs-csi-controller-sa\.kube-system\.sa\.\S+): ec2:CreateSnapshot on \*`, true,
		"tighter: the CSI driver snapshots any volume, but each snapshot it creates must be tagged as the cluster's", ""},
	{`policy (masters\.{cluster}|ebs-csi-controller-sa\.kube-system\.sa\.\S+): ec2:CreateSnapshot on arn:aws:ec2:\*:\*:volume/\*`, false,
		"tighter: the CSI driver snapshots any volume, but each snapshot it creates must be tagged as the cluster's", ""},
	{`policy (masters|nodes|apiservers)\.{cluster}: ecr:(BatchImportUpstreamImage|CreateRepository|ReplicateImage|TagResource) on \*`, true,
		"tighter: the ECR pull-through cache rights of useECRCredentialsForMirrors reach repositories in the cluster's region only, whose registry the nodes' credential provider asks for the mirrored images' tokens", ""},
	{`policy (masters|nodes|apiservers)\.{cluster}: ecr:(BatchImportUpstreamImage|CreateRepository|ReplicateImage|TagResource) on arn:aws:ecr:us-test-1:\*:repository/\*`, false,
		"tighter: the ECR pull-through cache rights of useECRCredentialsForMirrors reach repositories in the cluster's region only, whose registry the nodes' credential provider asks for the mirrored images' tokens", ""},
	{`trust \S+\.sa\.\S+: sts:AssumeRoleWithWebIdentity by the OIDC provider of \S+ if StringEquals \S+:aud=amazonaws\.com`, false,
		"tighter: a service account's role trusts only tokens for AWS (audience amazonaws.com, as kops's pod identity webhook projects them), not the OIDC provider's other audiences", ""},
	{`(resource aws_iam_role_policy\.aws-node-termination-handler-kube-system-sa-\S+|policy aws-node-termination-handler\.kube-system\.sa\.\S+: .*)`, true,
		"tighter: without its queue (enableSQSTerminationDraining: false) the termination handler's role has no rights", "nth-imds-processor-irsa"},
}

// expectation is kops's output for a case, as kops-expected.yaml transcribes it.
type expectation struct {
	Partition       string   `yaml:"partition"`
	Resources       []string `yaml:"resources"`
	Outputs         []string `yaml:"outputs"`
	MetadataOptions map[string]struct {
		HTTPTokens string `yaml:"httpTokens"`
		HopLimit   int64  `yaml:"hopLimit"`
		IPv6       string `yaml:"ipv6"`
	} `yaml:"metadataOptions"`
	Policies map[string][]struct {
		On    []string                       `yaml:"on"`
		If    map[string]map[string][]string `yaml:"if"`
		Allow []string                       `yaml:"allow"`
	} `yaml:"policies"`
	// Trust is each role's trust policy: who (a service, or the OIDC provider's ARN) may assume it.
	Trust map[string][]struct {
		By    string                         `yaml:"by"`
		If    map[string]map[string][]string `yaml:"if"`
		Allow []string                       `yaml:"allow"`
	} `yaml:"trust"`
	// Attachments are the managed policies attached to each role, by ARN.
	Attachments map[string][]string `yaml:"attachments"`
	// Boundaries are the roles' permissions boundaries.
	Boundaries map[string]string `yaml:"boundaries"`
	// Profiles are the instance profiles launch templates name where a group brings its own
	// (spec.iam.profile), by template; a template naming the profile made with the cluster is left out.
	Profiles map[string]string `yaml:"profiles"`
}

// oidcProviderARN is how kops's mock cloud names an OIDC provider: the account ID is its, the rest
// the issuer's host and path.
var oidcProviderARN = regexp.MustCompile(`^arn:[^:]+:iam::[0-9]{12}:oidc-provider/(.+)$`)

// facts flattens an output to one line per fact: "resource <address>", "output <name>",
// "metadata <template>: ...", and per granted action and resource "policy <role>: <action> on
// <resource><condition>", so that a difference names exactly what one side has and the other not.
func (e *expectation) facts() []string {
	var out []string
	for _, r := range e.Resources {
		out = append(out, "resource "+r)
	}
	for _, o := range e.Outputs {
		out = append(out, "output "+o)
	}
	for name, m := range e.MetadataOptions {
		out = append(out, metadataFact(name, m.HTTPTokens, m.HopLimit, m.IPv6 == "enabled"))
	}
	for role, statements := range e.Policies {
		for _, s := range statements {
			// kops's mock cloud puts its test region in the partition aws-test; ARNs are compared
			// in the partition this build gives the region, aws.
			var on []string
			for _, r := range s.On {
				on = append(on, strings.Replace(r, "arn:"+e.Partition+":", "arn:aws:", 1))
			}
			out = append(out, policyFacts(role, awstasks.Statement{Action: s.Allow, Resource: on, Condition: s.If})...)
		}
	}
	for role, statements := range e.Trust {
		for _, s := range statements {
			by := s.By
			if m := oidcProviderARN.FindStringSubmatch(by); m != nil {
				by = "the OIDC provider of " + m[1]
			}
			out = append(out, trustFacts(role, by, awstasks.Statement{Action: s.Allow, Condition: s.If})...)
		}
	}
	for role, arns := range e.Attachments {
		for _, arn := range arns {
			out = append(out, attachmentFact(role, arn))
		}
	}
	for role, arn := range e.Boundaries {
		out = append(out, boundaryFact(role, arn))
	}
	for template, name := range e.Profiles {
		out = append(out, profileFact(template, name))
	}
	return out
}

func profileFact(template, name string) string {
	return fmt.Sprintf("profile %s: %s (the group's own)", template, name)
}

func boundaryFact(role, arn string) string { return fmt.Sprintf("boundary %s: %s", role, arn) }

// trustFacts are one line per action and condition key of a trust policy's statement, so that
// a condition one side has and the other not is named on its own.
func trustFacts(role, by string, s awstasks.Statement) []string {
	var out []string
	for _, a := range s.Action {
		out = append(out, fmt.Sprintf("trust %s: %s by %s", role, a, by))
		for op, keys := range s.Condition {
			for key, values := range keys {
				out = append(out, fmt.Sprintf("trust %s: %s by %s if %s %s=%s", role, a, by, op, key, strings.Join(values, "|")))
			}
		}
	}
	return out
}

func attachmentFact(role, arn string) string { return fmt.Sprintf("attach %s: %s", role, arn) }

func metadataFact(template, tokens string, hopLimit int64, ipv6 bool) string {
	return fmt.Sprintf("metadata %s: tokens %s, hop limit %d, IPv6 endpoint %v", template, tokens, hopLimit, ipv6)
}

func policyFacts(role string, s awstasks.Statement) []string {
	var out []string
	for _, a := range s.Action {
		for _, r := range s.Resource {
			out = append(out, fmt.Sprintf("policy %s: %s on %s%s", role, a, r, s.ConditionSummary()))
		}
	}
	return out
}

// parityNodeup is where the control plane's bootstrap downloads nodeup; its bytes are not
// compared (kops's user data is kops's nodeup script, ours is multi-part, docs/terraform.md).
var parityNodeup = model.NodeupSource{"amd64": {URLs: []string{"https://example.com/nodeup"}, SHA256: strings.Repeat("0", 64)}}

// render loads the case's cluster into a memfs state store whose base is its configBase's parent,
// as kops's tests do, gives the groups that run kubelet but for the control plane a bootstrap of
// their own (kops's nodeup script carries theirs), and returns this build's facts for it.
func render(t *testing.T, dir string) (cluster string, facts []string) {
	input, err := os.ReadFile(filepath.Join(dir, golden.Input))
	require.NoError(t, err)
	objs, _, err := kopscodecs.Decode(golden.Input, input, true)
	require.NoError(t, err)
	n, err := client.NewClusterFromObjects(objs)
	require.NoError(t, err)
	for _, ig := range n.InstanceGroups {
		if ig.Spec.Role == kops.RoleNode {
			ig.Spec.AdditionalUserData = []kops.UserData{{Name: "nodeup.sh", Type: "text/x-shellscript", Content: "#!/bin/bash\n"}}
		}
	}
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath(strings.TrimSuffix(n.Cluster.Spec.ConfigBase, "/"+n.Cluster.Name), mem)
	require.NoError(t, err)
	clientset := client.New(base)
	require.NoError(t, clientset.CreateCluster(n))
	name := n.Cluster.Name

	// The tasks: IAM role policies and launch templates.
	ctx, _, err := cloudup.LoadModelContext(clientset, name, featureflag.Set{})
	require.NoError(t, err)
	ctx.Nodeup = parityNodeup
	tasks, err := cloudup.BuildTasks(ctx)
	require.NoError(t, err)
	for _, task := range tasks {
		switch task := task.(type) {
		case *awstasks.IAMRolePolicy:
			for _, s := range task.PolicyDocument.Statement {
				facts = append(facts, policyFacts(task.Name, s)...)
			}
		case *awstasks.IAMRole:
			by := ""
			for _, st := range task.AssumeRolePolicy.Statement {
				switch {
				case st.Principal.Federated == awstasks.OIDCProviderARN && task.WebIdentity != nil:
					by = "the OIDC provider of " + strings.TrimPrefix(task.WebIdentity.Issuer, "https://")
				case st.Principal.Federated != "":
					by = st.Principal.Federated
				default:
					by = st.Principal.Service
				}
				facts = append(facts, trustFacts(task.Name, by, st)...)
			}
			if task.PermissionsBoundary != "" {
				facts = append(facts, boundaryFact(task.Name, task.PermissionsBoundary))
			}
		case *awstasks.IAMRolePolicyAttachment:
			for _, arn := range task.PolicyARNs {
				facts = append(facts, attachmentFact(task.Role, arn))
			}
		case *awstasks.LaunchTemplate:
			facts = append(facts, metadataFact(task.Name, task.Metadata.HTTPTokens, task.Metadata.HopLimit, task.Metadata.IPv6))
			if task.ExistingProfile {
				facts = append(facts, profileFact(task.Name, task.InstanceProfile))
			}
		}
	}

	// The terraform: resource addresses and outputs, as written to --out.
	var report bytes.Buffer
	_, err = cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
		Clientset: clientset, ClusterName: name, Target: cloudup.TargetTerraform,
		OutDir: "memfs://parity-out/" + name, Yes: true, Out: &report, Nodeup: parityNodeup,
	})
	require.NoError(t, err, report.String())
	out, err := vfs.ParsePath("memfs://parity-out/"+name+"/"+terraform.MainFile, mem)
	require.NoError(t, err)
	main, err := out.ReadFile()
	require.NoError(t, err)
	block := regexp.MustCompile(`(?m)^(resource|output) "([^"]+)"(?: "([^"]+)")? \{$`)
	for _, m := range block.FindAllStringSubmatch(string(main), -1) {
		if m[1] == "output" {
			facts = append(facts, "output "+m[2])
		} else {
			facts = append(facts, "resource "+m[2]+"."+m[3])
		}
	}
	return name, facts
}

// only returns the facts of a that b lacks, sorted.
func only(a, b []string) []string {
	in := map[string]bool{}
	for _, f := range b {
		in[f] = true
	}
	var out []string
	for _, f := range a {
		if !in[f] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// explain takes the intended differences out of diff (for the case named dir), marking the rows it
// used, and returns what is left: differences nobody reviewed.
func explain(diff []string, kopsOnly bool, dir, cluster string, used map[int]bool) []string {
	var left []string
	for _, f := range diff {
		explained := false
		for i, d := range intended {
			if d.kopsOnly != kopsOnly || (d.in != "" && d.in != dir) {
				continue
			}
			p := strings.NewReplacer("{cluster}", regexp.QuoteMeta(cluster), "{dashed}", regexp.QuoteMeta(strings.ReplaceAll(cluster, ".", "-"))).Replace(d.pattern)
			if regexp.MustCompile("^" + p + "$").MatchString(f) {
				used[i], explained = true, true
			}
		}
		if !explained {
			left = append(left, f)
		}
	}
	return left
}

func TestParityWithKops(t *testing.T) {
	used := map[int]bool{}
	for _, dir := range golden.Cases(t, 2) {
		t.Run(dir, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "kops-expected.yaml"))
			require.NoError(t, err)
			var want expectation
			dec := yaml.NewDecoder(bytes.NewReader(data))
			dec.KnownFields(true)
			require.NoError(t, dec.Decode(&want))
			theirs := want.facts()
			require.NotEmpty(t, theirs)

			cluster, ours := render(t, dir)
			assert.Empty(t, explain(only(theirs, ours), true, dir, cluster, used), "kops writes these and this build does not")
			assert.Empty(t, explain(only(ours, theirs), false, dir, cluster, used), "this build writes these and kops does not")
		})
	}
	for i, d := range intended {
		assert.True(t, used[i], "intended difference %q is shown by no case: remove it (and its row in docs/terraform-parity.md)", d.pattern)
	}
}

// Every intended difference is in docs/terraform-parity.md, with its reason, so users read the same table.
func TestDifferencesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/terraform-parity.md")
	require.NoError(t, err)
	for _, d := range intended {
		assert.True(t, strings.Contains(string(doc), d.why), "docs/terraform-parity.md gives the reason of %q: %s", d.pattern, d.why)
	}
}

// The comparison can fail: a grant kops does not make, or one of kops's missing, is reported.
func TestParityCatchesDifferences(t *testing.T) {
	used := map[int]bool{}
	extra := []string{"policy masters.a.example.com: ec2:TerminateInstances on *"}
	assert.Equal(t, extra, explain(only(append([]string{"output region"}, extra...), []string{"output region"}), false, "minimal-1.35", "a.example.com", used))
	missing := []string{"policy nodes.a.example.com: ecr:BatchGetImage on *"}
	assert.Equal(t, missing, explain(only(missing, nil), true, "minimal-1.35", "a.example.com", used))
	// A reviewed difference of one direction does not excuse the other.
	assert.NotEmpty(t, explain([]string{"output vpc_id"}, false, "minimal-1.35", "a.example.com", used))
	// A difference reviewed for one case does not excuse it in another.
	nth := []string{"policy aws-node-termination-handler.kube-system.sa.a.example.com: sqs:ReceiveMessage on *"}
	assert.Empty(t, explain(nth, true, "nth-imds-processor-irsa", "a.example.com", used))
	nth = []string{"policy aws-node-termination-handler.kube-system.sa.a.example.com: autoscaling:DescribeTags on *"}
	assert.Equal(t, nth, explain(nth, true, "public-jwks-apiserver", "a.example.com", used))
	// A trust policy missing kops's condition on the service account is reported.
	sub := []string{"trust dns-controller.kube-system.sa.a.example.com: sts:AssumeRoleWithWebIdentity by the OIDC provider of d/a if StringEquals d/a:sub=system:serviceaccount:kube-system:dns-controller"}
	assert.Equal(t, sub, explain(sub, true, "irsa", "a.example.com", used))
}
