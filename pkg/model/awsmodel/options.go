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
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
	"k8s.io/kops/util/pkg/aws/awspartition"
)

// clusterFacts decide the machines' IAM rights, read once from modeled and unmodeled fields.
type clusterFacts struct {
	name, region, partition string

	stateStoreReads, etcdBackups []s3Location
	// hostedZoneID is empty without Route 53 DNS or when this build cannot name the zone (dnsWarning).
	hostedZoneID, dnsWarning string

	allowContainerRegistry bool
	clusterAutoscaler      bool
	staticInstanceList     bool
	terminationQueue       bool
	nlbSecurityGroups      bool
	ipv6                   bool
	nvidiaGPU              bool
	// ecrMirrorCredentials is spec.containerd.useECRCredentialsForMirrors.
	ecrMirrorCredentials bool
	// lifecycleHooks are the role kinds with a warm pool's lifecycle hook to complete; warmPoolGroups
	// the groups with a warm pool.
	lifecycleHooks map[string]bool
	warmPoolGroups []string

	amazonVPC, ciliumENI, calicoSrcDst, kubenet, kubeRouter, kindnet bool

	forwardBaseRoleARN string

	// Which of kops's components run, for their roles of their own (IRSA).
	publishesDNS, externalDNS, ebsCSIDriverManaged, terminationHandlerRuns, loadBalancerControllerRuns bool
	snapshotController                                                                                 bool

	irsa *irsaFacts

	// permissionsBoundary is on every role; externalPolicies are attached by role kind (masters, nodes, ...),
	// additionalPolicies (the user's own statements) are a further inline policy by role kind.
	permissionsBoundary string
	externalPolicies    map[string][]string
	additionalPolicies  map[string][]awstasks.Statement
}

// unsupported kops options change what kops grants in ways not modeled here; rather than break the
// cluster or over-grant, a cluster setting one is refused.
var unsupported = []struct {
	path []string
	why  string
}{
	{[]string{"spec", "awsLoadBalancerController", "enableWAF"}, "the AWS Load Balancer Controller's WAF rights are not modeled"},
	{[]string{"spec", "awsLoadBalancerController", "enableWAFv2"}, "the AWS Load Balancer Controller's WAFv2 rights are not modeled"},
	{[]string{"spec", "awsLoadBalancerController", "enableShield"}, "the AWS Load Balancer Controller's Shield rights are not modeled"},
	{[]string{"spec", "karpenter", "enabled"}, "Karpenter's rights are not modeled, and the machines it launches boot from kops's EC2NodeClass, not from a launch template this build writes, so the pod metadata-access setup would not reach them"},
	{[]string{"spec", "encryptionConfig"}, "a KMS plugin on the control plane needs KMS outside EC2 and S3, which is not modeled"},
}

func readFacts(ctx *model.KopsModelContext) (*clusterFacts, error) {
	c := ctx.Cluster
	u := c.Unmodeled
	for _, f := range unsupported {
		if v, _, _ := kopsField(u, f.path...); isSet(v) {
			return nil, fmt.Errorf("%s is set: %s, so the IAM roles this build would make differ from what the cluster needs; unset it, or keep kops for this cluster's cloud resources", strings.Join(f.path, "."), f.why)
		}
	}
	if err := checkGroupProfiles(ctx); err != nil {
		return nil, err
	}

	region, err := Region(c)
	if err != nil {
		return nil, err
	}
	f := &clusterFacts{name: c.Name, region: region, partition: awspartition.Of(region), ipv6: c.Spec.IsIPv6Only()}
	if err := f.readStateStore(c); err != nil {
		return nil, err
	}
	if err := f.readDNS(c); err != nil {
		return nil, err
	}
	if err := f.readComponents(c); err != nil {
		return nil, err
	}
	if err := f.readWarmPools(ctx); err != nil {
		return nil, err
	}
	if f.irsa, err = readIRSA(c); err != nil {
		return nil, err
	}
	if err := f.readRoleOptions(c.Unmodeled); err != nil {
		return nil, err
	}
	if err := f.readAdditionalPolicies(c.Unmodeled); err != nil {
		return nil, err
	}
	if p := c.Spec.PodMetadataAccess; p != nil && p.Mode == kops.PodMetadataAccessForward && p.Forward != nil {
		f.forwardBaseRoleARN = p.Forward.BaseRoleARN
	}
	return f, nil
}

// readDNS: kops looks the zone up in Route 53; this build calls no cloud API, so it knows the ID only
// when spec.dnsZone is one.
func (f *clusterFacts) readDNS(c *kops.Cluster) error {
	dnsType, err := kopsString(c.Unmodeled, "spec", "topology", "dns", "type")
	if err != nil {
		return err
	}
	if strings.HasSuffix(c.Name, ".k8s.local") || dnsType == "None" {
		return nil
	}
	f.publishesDNS = true
	provider, err := kopsString(c.Unmodeled, "spec", "externalDns", "provider")
	if err != nil {
		return err
	}
	f.externalDNS = provider == "external-dns"
	zone, err := kopsString(c.Unmodeled, "spec", "dnsZone")
	if err != nil {
		return err
	}
	id := strings.TrimPrefix(strings.TrimPrefix(zone, "/"), "hostedzone/")
	if id != "" && !strings.Contains(id, ".") {
		f.hostedZoneID = id
		return nil
	}
	named := "its parent domain"
	if zone != "" {
		named = fmt.Sprintf("%q", zone)
	}
	f.dnsWarning = fmt.Sprintf("spec.dnsZone: dns-controller keeps the cluster's DNS records in a Route 53 hosted zone, and its rights name the zone by ID; kops looks the ID of %s up in Route 53, this build calls no cloud API, so the control plane is granted no Route 53 rights and DNS records will not follow changes: set spec.dnsZone to the zone's ID (aws route53 list-hosted-zones-by-name --dns-name <zone>)", named)
	return nil
}

func (f *clusterFacts) readComponents(c *kops.Cluster) error {
	u := c.Unmodeled
	var err error
	read := func(def bool, path ...string) bool {
		if err != nil {
			return false
		}
		var v bool
		v, err = kopsBool(u, def, path...)
		return v
	}
	f.allowContainerRegistry = read(false, "spec", "iam", "allowContainerRegistry")
	f.clusterAutoscaler = read(false, "spec", "clusterAutoscaler", "enabled")
	f.staticInstanceList = read(false, "spec", "clusterAutoscaler", "awsUseStaticInstanceList")
	// The node termination handler runs by default, processing a queue unless told not to.
	f.terminationHandlerRuns = read(true, "spec", "nodeTerminationHandler", "enabled")
	f.terminationQueue = f.terminationHandlerRuns && read(true, "spec", "nodeTerminationHandler", "enableSQSTerminationDraining")
	f.ebsCSIDriverManaged = read(true, "spec", "cloudConfig", "awsEBSCSIDriver", "managed")
	f.loadBalancerControllerRuns = read(false, "spec", "awsLoadBalancerController", "enabled")
	f.snapshotController = read(false, "spec", "snapshotController", "enabled")
	f.nvidiaGPU = read(false, "spec", "containerd", "nvidiaGPU", "enabled")
	f.ecrMirrorCredentials = read(false, "spec", "containerd", "useECRCredentialsForMirrors")
	if err != nil {
		return err
	}
	mode, err := kopsString(u, "spec", "cloudConfig", "nlbSecurityGroupMode")
	if err != nil {
		return err
	}
	f.nlbSecurityGroups = mode == "Managed"

	n := c.Spec.Networking
	if n == nil {
		n = &kops.NetworkingSpec{}
	}
	f.amazonVPC = n.AmazonVPC != nil
	f.ciliumENI = n.Cilium != nil && n.Cilium.IPAM == kops.CiliumIPAMENI
	f.kubenet = n.Kubenet != nil
	f.kubeRouter = n.KubeRouter != nil
	if _, f.kindnet, err = kopsField(u, "spec", "networking", "kindnet"); err != nil {
		return err
	}
	if n.Calico != nil && !f.ipv6 {
		check, err := kopsString(u, "spec", "networking", "calico", "awsSrcDstCheck")
		if err != nil {
			return err
		}
		f.calicoSrcDst = check != "DoNothing"
	}
	return nil
}

// readRoleOptions reads spec.iam.permissionsBoundary and spec.externalPolicies, whose keys are
// kops's role names (master or control-plane, node, bastion, apiserver).
func (f *clusterFacts) readRoleOptions(u kops.Unmodeled) error {
	boundary, err := kopsString(u, "spec", "iam", "permissionsBoundary")
	if err != nil {
		return err
	}
	if boundary != "" && !isPolicyARN(boundary) {
		return fmt.Errorf("spec.iam.permissionsBoundary: %q is not a managed policy's ARN (arn:<partition>:iam::<account or aws>:policy/<name>)", boundary)
	}
	f.permissionsBoundary = boundary
	v, ok, err := kopsField(u, "spec", "externalPolicies")
	if err != nil || !ok {
		return err
	}
	byRole, isMap := v.(map[string]interface{})
	if !isMap {
		return fmt.Errorf("spec.externalPolicies: must map role names to lists of policy ARNs, not %T", v)
	}
	f.externalPolicies = map[string][]string{}
	for _, key := range slices.Sorted(maps.Keys(byRole)) {
		path := "spec.externalPolicies." + key
		kind, known := roleKinds[key]
		if !known {
			return fmt.Errorf("%s: %q is not a role kops knows (control-plane, node, bastion, apiserver)", path, key)
		}
		if f.externalPolicies[kind] != nil {
			return fmt.Errorf("%s: the control plane's policies are listed under master and control-plane; keep one", path)
		}
		list, isList := byRole[key].([]interface{})
		if !isList {
			return fmt.Errorf("%s: must be a list of policy ARNs, not %T", path, byRole[key])
		}
		arns := []string{}
		for i, item := range list {
			arn, isString := item.(string)
			if !isString || !isPolicyARN(arn) {
				return fmt.Errorf("%s[%d]: %v is not a managed policy's ARN (arn:<partition>:iam::<account or aws>:policy/<name>)", path, i, item)
			}
			arns = append(arns, arn)
		}
		// Sorted as kops sorts them.
		f.externalPolicies[kind] = sortedUnique(arns)
	}
	return nil
}
