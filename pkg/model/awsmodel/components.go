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

package awsmodel

import (
	"k8s.io/kops/pkg/apis/kops"
)

// grantsFor returns a role's rights: what kops's components on it call (kops's pkg/model/iam, checked
// by tests/integration/kopsparity), scoped as tightly as kops or tighter (docs/terraform-parity.md says where).
func (f *clusterFacts) grantsFor(role kops.InstanceGroupRole) []grant {
	var g []grant
	switch role {
	case kops.RoleControlPlane, kops.RoleMaster:
		g = append(g, f.etcdManager()...)
		g = append(g, f.kopsController()...)
		g = append(g, f.nodeup()...)
		g = append(g, f.stateStore(true)...)
		g = append(g, f.kms()...)
		if !f.irsa.components {
			// With useServiceAccountExternalPermissions these are the components' own roles' (componentRoles).
			g = append(g, f.dnsController()...)
			g = append(g, f.ebsCSIDriver()...)
			g = append(g, f.cloudControllerManager()...)
			g = append(g, f.clusterAutoscalerRights()...)
			g = append(g, f.terminationHandler()...)
			g = append(g, f.loadBalancerController()...)
		}
		g = append(g, f.containerRegistry()...)
		g = append(g, f.ecrMirrors()...)
		g = append(g, f.cni(role)...)
	case kops.RoleAPIServer:
		g = append(g, f.nodeup()...)
		g = append(g, f.lifecycleHook(role)...)
		g = append(g, f.stateStore(false)...)
		g = append(g, f.kms()...)
		g = append(g, f.containerRegistry()...)
		g = append(g, f.ecrMirrors()...)
		g = append(g, f.cni(role)...)
	case kops.RoleNode:
		g = append(g, f.nodeup()...)
		g = append(g, f.lifecycleHook(role)...)
		g = append(g, f.containerRegistry()...)
		g = append(g, f.ecrMirrors()...)
		g = append(g, f.cni(role)...)
		g = append(g, f.kube2iam()...)
	}
	return g
}

func (f *clusterFacts) etcdManager() []grant {
	return []grant{
		onEvery("ec2:DescribeInstances", "ec2:DescribeVolumes"),
		{actions: []string{"ec2:AttachVolume"}, condition: condition{"StringEquals": {
			"aws:ResourceTag/" + TagClusterName: {f.name},
			"aws:ResourceTag/" + TagRoleMaster:  {"1"},
		}}},
	}
}

func (f *clusterFacts) kopsController() []grant {
	g := []grant{onEvery("ec2:DescribeInstances")}
	if f.ipv6 {
		g = append(g, onEvery("ec2:DescribeNetworkInterfaces"))
	}
	return g
}

// nodeup: kops grants the IPv6 prefix assignment on every interface, since the primary interface's
// tag is not a condition AWS documents for it.
func (f *clusterFacts) nodeup() []grant {
	var g []grant
	if f.nvidiaGPU || f.amazonVPC || f.ciliumENI {
		g = append(g, onEvery("ec2:DescribeInstanceTypes"))
	}
	if f.ipv6 {
		g = append(g, onEvery("ec2:AssignIpv6Addresses"))
	}
	return g
}

// stateStore grants reads below the cluster's paths and, with etcdBackups, writes below the backups'.
func (f *clusterFacts) stateStore(etcdBackups bool) []grant {
	var g []grant
	buckets := map[string]bool{}
	for _, l := range f.stateStoreReads {
		g = append(g, grant{actions: []string{"s3:Get*"}, resources: []string{l.arn(f.partition)}})
		buckets[l.bucket] = true
	}
	if etcdBackups {
		for _, l := range f.etcdBackups {
			g = append(g, grant{
				actions:   []string{"s3:DeleteObject", "s3:DeleteObjectVersion", "s3:GetObject", "s3:PutObject"},
				resources: []string{l.arn(f.partition)},
			})
			buckets[l.bucket] = true
		}
	}
	for b := range buckets {
		g = append(g, grant{
			actions:   []string{"s3:GetBucketLocation", "s3:GetEncryptionConfiguration", "s3:ListBucket", "s3:ListBucketVersions"},
			resources: []string{f.arn("s3", "::"+b)},
		})
	}
	return g
}

// kms: keys are used through EC2 and S3 only; grants may be created only for AWS services.
func (f *clusterFacts) kms() []grant {
	return []grant{
		{actions: []string{"kms:CreateGrant"}, condition: condition{"Bool": {"kms:GrantIsForAWSResource": {"true"}}}},
		{actions: []string{"kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*", "kms:ReEncrypt*"},
			condition: condition{"StringLike": {"kms:ViaService": {"ec2." + f.region + ".amazonaws.com", "s3.*.amazonaws.com"}}}},
	}
}

func (f *clusterFacts) dnsController() []grant {
	if f.hostedZoneID == "" {
		return nil
	}
	return []grant{
		{actions: []string{"route53:ChangeResourceRecordSets", "route53:GetHostedZone", "route53:ListResourceRecordSets"},
			resources: []string{f.arn("route53", "::hostedzone/"+f.hostedZoneID)}},
		{actions: []string{"route53:GetChange"}, resources: []string{f.arn("route53", "::change/*")}},
		onEvery("route53:ListHostedZones", "route53:ListTagsForResource"),
	}
}

func (f *clusterFacts) ebsCSIDriver() []grant {
	g := []grant{
		onEvery("ec2:DescribeAvailabilityZones", "ec2:DescribeInstances", "ec2:DescribeInstanceTypes", "ec2:DescribeTags",
			"ec2:DescribeVolumes", "ec2:DescribeVolumesModifications", "ec2:DescribeVolumeStatus"),
		f.onTagged("ec2:AttachVolume", "ec2:DeleteVolume", "ec2:DetachVolume", "ec2:ModifyVolume"),
		f.creatingTagged("ec2:CopyVolumes", "ec2:CreateVolume"),
	}
	g = append(g, f.ec2Tagging([]string{"CopyVolumes", "CreateVolume"}, "snapshot", "volume")...)
	if f.snapshotController {
		g = append(g, f.ebsSnapshots()...)
	}
	return g
}

// ebsSnapshots are the CSI driver's snapshot rights, with spec.snapshotController. A snapshot is
// created tagged as the cluster's; its source volume is named by the call, untagged by it, so
// kops grants ec2:CreateSnapshot on every resource, and this build on volumes.
func (f *clusterFacts) ebsSnapshots() []grant {
	g := []grant{
		onEvery("ec2:DescribeAvailabilityZones", "ec2:DescribeSnapshots"),
		{actions: []string{"ec2:CreateSnapshot"}, resources: []string{f.arn("ec2", "*:*:volume/*")}},
		f.creatingTagged("ec2:CreateSnapshot"),
		f.onTagged("ec2:DeleteSnapshot", "ec2:EnableFastSnapshotRestores"),
		// A volume may be made from the cluster's snapshots.
		{actions: []string{"ec2:CreateVolume"}, resources: []string{f.arn("ec2", "*:*:snapshot/*")},
			condition: condition{"StringEquals": {"aws:ResourceTag/" + TagClusterName: {f.name}}}},
	}
	return append(g, f.ec2Tagging([]string{"CreateSnapshot"}, "snapshot", "volume")...)
}

func (f *clusterFacts) cloudControllerManager() []grant {
	g := []grant{
		onEvery(
			"autoscaling:DescribeAutoScalingGroups", "autoscaling:DescribeTags",
			"ec2:DescribeAvailabilityZones", "ec2:DescribeInstanceTopology", "ec2:DescribeInstances", "ec2:DescribeRegions",
			"ec2:DescribeRouteTables", "ec2:DescribeSecurityGroups", "ec2:DescribeSubnets", "ec2:DescribeVpcs",
			"elasticloadbalancing:DescribeListeners", "elasticloadbalancing:DescribeLoadBalancerAttributes",
			"elasticloadbalancing:DescribeLoadBalancerPolicies", "elasticloadbalancing:DescribeLoadBalancers",
			"elasticloadbalancing:DescribeTargetGroupAttributes", "elasticloadbalancing:DescribeTargetGroups",
			"elasticloadbalancing:DescribeTargetHealth", "kms:DescribeKey",
		),
		f.onTagged(
			"ec2:AuthorizeSecurityGroupIngress", "ec2:DeleteSecurityGroup", "ec2:ModifyInstanceAttribute",
			"ec2:RevokeSecurityGroupIngress",
			"elasticloadbalancing:AddTags", "elasticloadbalancing:ApplySecurityGroupsToLoadBalancer",
			"elasticloadbalancing:AttachLoadBalancerToSubnets", "elasticloadbalancing:ConfigureHealthCheck",
			"elasticloadbalancing:CreateLoadBalancerListeners", "elasticloadbalancing:CreateLoadBalancerPolicy",
			"elasticloadbalancing:DeleteListener", "elasticloadbalancing:DeleteLoadBalancer",
			"elasticloadbalancing:DeleteLoadBalancerListeners", "elasticloadbalancing:DeleteTargetGroup",
			"elasticloadbalancing:DeregisterInstancesFromLoadBalancer", "elasticloadbalancing:DeregisterTargets",
			"elasticloadbalancing:DetachLoadBalancerFromSubnets", "elasticloadbalancing:ModifyListener",
			"elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:ModifyTargetGroup",
			"elasticloadbalancing:ModifyTargetGroupAttributes", "elasticloadbalancing:RegisterInstancesWithLoadBalancer",
			"elasticloadbalancing:RegisterTargets", "elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer",
			"elasticloadbalancing:SetLoadBalancerPoliciesOfListener",
		),
		// A listener is created tagged by its request; it has no tag of its own yet to condition on.
		f.creatingTagged("ec2:CreateSecurityGroup", "elasticloadbalancing:CreateListener",
			"elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:CreateTargetGroup"),
		// Creating a security group also touches its VPC, which no request tag describes and kops does not
		// require to be tagged.
		{actions: []string{"ec2:CreateSecurityGroup"}, resources: []string{f.arn("ec2", "*:*:vpc/*")}},
		// The first load balancer of an account needs ELB's service-linked role.
		{actions: []string{"iam:CreateServiceLinkedRole"},
			condition: condition{"StringEquals": {"iam:AWSServiceName": {"elasticloadbalancing.amazonaws.com"}}}},
	}
	g = append(g, f.ec2Tagging([]string{"CreateSecurityGroup"}, "security-group")...)
	if f.kubenet {
		g = append(g, f.onTagged("ec2:CreateRoute", "ec2:DeleteRoute"))
	}
	if f.nlbSecurityGroups {
		g = append(g, f.onTagged("elasticloadbalancing:SetSecurityGroups"))
	}
	return g
}

// clusterAutoscalerRights are granted only when kops runs the cluster autoscaler.
func (f *clusterFacts) clusterAutoscalerRights() []grant {
	if !f.clusterAutoscaler {
		return nil
	}
	g := []grant{
		onEvery("autoscaling:DescribeAutoScalingGroups", "autoscaling:DescribeAutoScalingInstances",
			"autoscaling:DescribeLaunchConfigurations", "autoscaling:DescribeScalingActivities",
			"ec2:DescribeImages", "ec2:DescribeLaunchTemplateVersions", "ec2:GetInstanceTypesFromInstanceRequirements"),
		f.onTagged("autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"),
	}
	if !f.staticInstanceList {
		g = append(g, onEvery("ec2:DescribeInstanceTypes"))
	}
	return g
}

func (f *clusterFacts) terminationHandler() []grant {
	if !f.terminationQueue {
		return nil
	}
	return []grant{
		onEvery("autoscaling:DescribeAutoScalingInstances", "autoscaling:DescribeTags", "ec2:DescribeInstances"),
		{actions: []string{"sqs:DeleteMessage", "sqs:ReceiveMessage"},
			resources: []string{f.arn("sqs", f.region+":*:"+queueName(f.name))}},
		f.onTagged("autoscaling:CompleteLifecycleAction"),
	}
}

func (f *clusterFacts) containerRegistry() []grant {
	if !f.allowContainerRegistry {
		return nil
	}
	return []grant{onEvery("ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:DescribeRepositories",
		"ecr:GetAuthorizationToken", "ecr:GetDownloadUrlForLayer", "ecr:GetRepositoryPolicy", "ecr:ListImages")}
}

func (f *clusterFacts) cni(role kops.InstanceGroupRole) []grant {
	var g []grant
	if f.amazonVPC {
		// The VPC CNI's own interfaces are untagged when created; kops grants them on every interface, as
		// AWS's CNI policy does.
		g = append(g,
			onEvery("ec2:AssignPrivateIpAddresses", "ec2:AttachNetworkInterface", "ec2:CreateNetworkInterface",
				"ec2:DeleteNetworkInterface", "ec2:DescribeInstances", "ec2:DescribeInstanceTypes",
				"ec2:DescribeNetworkInterfaces", "ec2:DescribeSecurityGroups", "ec2:DescribeSubnets", "ec2:DescribeTags",
				"ec2:DetachNetworkInterface", "ec2:ModifyNetworkInterfaceAttribute", "ec2:UnassignPrivateIpAddresses"),
			grant{actions: []string{"ec2:CreateTags"}, resources: []string{f.arn("ec2", "*:*:network-interface/*")}})
	}
	if f.ciliumENI && role != kops.RoleNode {
		// kops grants Cilium ec2:CreateTags on every resource; here only on network interfaces.
		g = append(g,
			onEvery("ec2:AssignPrivateIpAddresses", "ec2:AttachNetworkInterface", "ec2:CreateNetworkInterface",
				"ec2:DeleteNetworkInterface", "ec2:DescribeInstances", "ec2:DescribeNetworkInterfaces",
				"ec2:DescribeRouteTables", "ec2:DescribeSecurityGroups", "ec2:DescribeSubnets", "ec2:DescribeTags",
				"ec2:DescribeVpcs", "ec2:ModifyNetworkInterfaceAttribute", "ec2:UnassignPrivateIpAddresses"),
			grant{actions: []string{"ec2:CreateTags"}, resources: []string{f.arn("ec2", "*:*:network-interface/*")}})
	}
	if f.calicoSrcDst {
		// kops grants Calico's source/destination check change on every interface.
		g = append(g, onEvery("ec2:DescribeInstances"), f.onTagged("ec2:ModifyNetworkInterfaceAttribute"))
	}
	if f.kindnet || (f.kubeRouter && role == kops.RoleNode) {
		g = append(g, f.onTagged("ec2:ModifyInstanceAttribute"))
	}
	return g
}

// kube2iam assumes only roles below baseRoleARN.
func (f *clusterFacts) kube2iam() []grant {
	if f.forwardBaseRoleARN == "" {
		return nil
	}
	return []grant{{actions: []string{"sts:AssumeRole"}, resources: []string{f.forwardBaseRoleARN + "*"}}}
}

// loadBalancerController is the AWS Load Balancer Controller's, when kops runs it. What it creates
// carries the cluster's tag (kops gives it the cluster's tags as default tags), so every change is
// conditioned on it; kops grants the reordering of listener rules on every rule, here only on the
// cluster's, as the controller's own reference policy does.
func (f *clusterFacts) loadBalancerController() []grant {
	if !f.loadBalancerControllerRuns {
		return nil
	}
	g := []grant{
		onEvery(
			"acm:DescribeCertificate", "acm:ListCertificates", "cognito-idp:DescribeUserPoolClient",
			"ec2:DescribeAccountAttributes", "ec2:DescribeAvailabilityZones", "ec2:DescribeInstances",
			"ec2:DescribeInternetGateways", "ec2:DescribeNetworkInterfaces", "ec2:DescribeSecurityGroups",
			"ec2:DescribeSubnets", "ec2:DescribeVpcPeeringConnections", "ec2:DescribeVpcs", "ec2:GetSecurityGroupsForVpc",
			"elasticloadbalancing:DescribeCapacityReservation", "elasticloadbalancing:DescribeListenerAttributes",
			"elasticloadbalancing:DescribeListenerCertificates", "elasticloadbalancing:DescribeListeners",
			"elasticloadbalancing:DescribeLoadBalancerAttributes", "elasticloadbalancing:DescribeLoadBalancers",
			"elasticloadbalancing:DescribeRules", "elasticloadbalancing:DescribeTags",
			"elasticloadbalancing:DescribeTargetGroupAttributes", "elasticloadbalancing:DescribeTargetGroups",
			"elasticloadbalancing:DescribeTargetHealth", "elasticloadbalancing:DescribeTrustStores",
		),
		f.onTagged(
			"ec2:AuthorizeSecurityGroupIngress", "ec2:DeleteSecurityGroup", "ec2:RevokeSecurityGroupIngress",
			"elasticloadbalancing:AddListenerCertificates", "elasticloadbalancing:AddTags",
			"elasticloadbalancing:DeleteListener", "elasticloadbalancing:DeleteLoadBalancer",
			"elasticloadbalancing:DeleteRule", "elasticloadbalancing:DeleteTargetGroup",
			"elasticloadbalancing:DeregisterTargets", "elasticloadbalancing:ModifyCapacityReservation",
			"elasticloadbalancing:ModifyListener", "elasticloadbalancing:ModifyListenerAttributes",
			"elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:ModifyRule",
			"elasticloadbalancing:ModifyTargetGroup", "elasticloadbalancing:ModifyTargetGroupAttributes",
			"elasticloadbalancing:RegisterTargets", "elasticloadbalancing:RemoveListenerCertificates",
			"elasticloadbalancing:RemoveTags", "elasticloadbalancing:SetIpAddressType",
			"elasticloadbalancing:SetRulePriorities", "elasticloadbalancing:SetSecurityGroups",
			"elasticloadbalancing:SetSubnets",
		),
		f.creatingTagged("ec2:CreateSecurityGroup", "elasticloadbalancing:CreateListener",
			"elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:CreateRule", "elasticloadbalancing:CreateTargetGroup"),
		// As for the cloud controller manager: creating a group touches its VPC, which no tag describes.
		{actions: []string{"ec2:CreateSecurityGroup"}, resources: []string{f.arn("ec2", "*:*:vpc/*")}},
	}
	return append(g, f.ec2Tagging([]string{"CreateSecurityGroup"}, "security-group")...)
}
