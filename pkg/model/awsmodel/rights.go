package awsmodel

import (
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// scope says how far a row of rights reaches.
type scope int

const (
	// readOnly actions only read; they are granted on every resource.
	readOnly scope = iota
	// clusterResources actions change a resource only if it carries the cluster's tag.
	clusterResources
	// clusterCreates actions create a resource only if the request tags it as the cluster's.
	clusterCreates
)

// rights is one row of a role's rights table: actions granted on every resource within a scope.
type rights struct {
	scope   scope
	actions []string
}

// readOnlyPrefixes are the only action names that never change anything. Whatever else an action
// is called counts as changing something, so a new action must be scoped to the cluster.
var readOnlyPrefixes = []string{"Describe", "Get", "List"}

// isReadOnly says whether action (service:Name) only reads.
func isReadOnly(action string) bool {
	_, name, ok := strings.Cut(action, ":")
	if !ok {
		return false
	}
	for _, p := range readOnlyPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// controlPlaneRights is what the control plane's cloud provider does with EC2 and load balancers:
// read everything, change only the cluster's tagged routes, volumes, security groups and load
// balancers, and create them only tagged as the cluster's.
func controlPlaneRights() []rights {
	return []rights{
		{readOnly, []string{
			"autoscaling:DescribeAutoScalingGroups",
			"ec2:DescribeAvailabilityZones",
			"ec2:DescribeInstanceTypes",
			"ec2:DescribeInstances",
			"ec2:DescribeRegions",
			"ec2:DescribeRouteTables",
			"ec2:DescribeSecurityGroups",
			"ec2:DescribeSubnets",
			"ec2:DescribeVolumes",
			"ec2:DescribeVpcs",
			"elasticloadbalancing:DescribeListeners",
			"elasticloadbalancing:DescribeLoadBalancerAttributes",
			"elasticloadbalancing:DescribeLoadBalancers",
			"elasticloadbalancing:DescribeTargetGroups",
			"elasticloadbalancing:DescribeTargetHealth",
		}},
		{clusterResources, []string{
			"ec2:AttachVolume",
			"ec2:AuthorizeSecurityGroupIngress",
			"ec2:CreateRoute",
			"ec2:DeleteRoute",
			"ec2:DeleteSecurityGroup",
			"ec2:DeleteVolume",
			"ec2:DetachVolume",
			"ec2:ModifyInstanceAttribute",
			"ec2:ModifyVolume",
			"ec2:RevokeSecurityGroupIngress",
			"elasticloadbalancing:CreateListener",
			"elasticloadbalancing:DeleteListener",
			"elasticloadbalancing:DeleteLoadBalancer",
			"elasticloadbalancing:DeleteTargetGroup",
			"elasticloadbalancing:DeregisterTargets",
			"elasticloadbalancing:ModifyLoadBalancerAttributes",
			"elasticloadbalancing:ModifyTargetGroup",
			"elasticloadbalancing:RegisterTargets",
		}},
		{clusterCreates, []string{
			"ec2:CreateSecurityGroup",
			"ec2:CreateVolume",
			"elasticloadbalancing:CreateLoadBalancer",
			"elasticloadbalancing:CreateTargetGroup",
		}},
	}
}

// tagging is a service's tagging action and the creates whose new resource it may tag in the same
// call. Tagging anything else is not granted: whoever may put the cluster's tag on a foreign
// resource gains every clusterResources right over it.
type tagging struct {
	service, action string
	creates         []string
}

func taggingRights() []tagging {
	return []tagging{
		{"ec2", "CreateTags", []string{"CreateSecurityGroup", "CreateVolume"}},
		{"elasticloadbalancing", "AddTags", []string{"CreateLoadBalancer", "CreateTargetGroup"}},
	}
}

// policyFor returns the statements of a machine role, none when the role is granted nothing.
func policyFor(c *kops.Cluster, role kops.InstanceGroupRole) *awstasks.PolicyDocument {
	var st []awstasks.Statement
	switch role {
	case kops.RoleControlPlane, kops.RoleMaster:
		for _, r := range controlPlaneRights() {
			st = append(st, statementFor(c.Name, r))
		}
		for _, t := range taggingRights() {
			st = append(st, awstasks.Statement{
				Effect: "Allow", Action: []string{t.service + ":" + t.action}, Resource: []string{"*"},
				Condition: map[string]map[string][]string{"StringEquals": {
					"aws:RequestTag/" + TagClusterName: {c.Name},
					t.service + ":CreateAction":        append([]string(nil), t.creates...),
				}},
			})
		}
	case kops.RoleNode:
		// Nodes get nothing by default: pods would inherit it. With Forward, the node's kube2iam
		// assumes the pods' roles, and only those under baseRoleARN.
		if p := c.Spec.PodMetadataAccess; p != nil && p.Mode == kops.PodMetadataAccessForward && p.Forward != nil && p.Forward.BaseRoleARN != "" {
			st = append(st, awstasks.Statement{
				Effect: "Allow", Action: []string{"sts:AssumeRole"}, Resource: []string{p.Forward.BaseRoleARN + "*"},
			})
		}
	}
	if len(st) == 0 {
		return nil
	}
	return &awstasks.PolicyDocument{Version: awstasks.PolicyVersion, Statement: st}
}

// statementFor turns a row of rights into a statement with the condition its scope needs.
func statementFor(cluster string, r rights) awstasks.Statement {
	s := awstasks.Statement{Effect: "Allow", Action: append([]string(nil), r.actions...), Resource: []string{"*"}}
	switch r.scope {
	case clusterResources:
		s.Condition = map[string]map[string][]string{"StringEquals": {"aws:ResourceTag/" + TagClusterName: {cluster}}}
	case clusterCreates:
		s.Condition = map[string]map[string][]string{"StringEquals": {"aws:RequestTag/" + TagClusterName: {cluster}}}
	}
	return s
}
