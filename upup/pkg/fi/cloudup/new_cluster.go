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

package cloudup

import (
	"fmt"
	"math/big"
	"net/netip"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
)

const (
	DefaultKubernetesVersion = "1.35.4"
	DefaultCloudProvider     = "aws"
	DefaultNetworkCIDR       = "172.20.0.0/16"
	// DefaultHopLimit keeps metadata responses on the node, so pods cannot read its credentials.
	DefaultHopLimit = 1
)

var machineDefaults = map[string]struct{ controlPlane, node string }{
	"aws": {"t3.medium", "t3.medium"},
	"gce": {"e2-medium", "e2-medium"},
}

type NewClusterOptions struct {
	Name              string
	Zones             []string
	ControlPlaneZones []string
	CloudProvider     string
	Channel           string
	KubernetesVersion string
	NetworkCIDR       string
	NodeCount         int32
	NodeSize          string
	ControlPlaneSize  string
	Image             string
	NodeImage         string
	ControlPlaneImage string
	Authorization     string
}

// NewCluster builds what `kops create cluster` stores, as kops does: a subnet per zone, control
// planes per control-plane zone, and nodes-<zone> groups sharing the nodes out, earlier zones first.
func NewCluster(o NewClusterOptions) (*kops.Cluster, []*kops.InstanceGroup, error) {
	if len(o.Zones) == 0 {
		return nil, nil, fmt.Errorf("must specify at least one zone for the cluster (use --zones)")
	}
	cloud := orDefault(o.CloudProvider, DefaultCloudProvider)
	if !slices.Contains(validation.SupportedCloudProviders, cloud) {
		return nil, nil, fmt.Errorf("unsupported --cloud %q: use one of %s", cloud, strings.Join(validation.SupportedCloudProviders, ", "))
	}
	// Zones are checked with the cluster by Check; only GCE's regional subnet needs the region here.
	var region string
	if cloud == "gce" {
		var err error
		if region, err = checkRegion(cloud, o.Zones); err != nil {
			return nil, nil, err
		}
	}
	kubernetesVersion := orDefault(o.KubernetesVersion, DefaultKubernetesVersion)
	sizes, known := machineDefaults[cloud]
	if !known && (o.NodeSize == "" || o.ControlPlaneSize == "") {
		return nil, nil, fmt.Errorf("no default machine types for cloud %q: specify --node-size and --control-plane-size", cloud)
	}
	networkCIDR := orDefault(o.NetworkCIDR, DefaultNetworkCIDR)
	subnetCIDRs, err := splitForZones(networkCIDR, len(o.Zones))
	if err != nil {
		return nil, nil, err
	}

	c := &kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: o.Name}}
	c.APIVersion, c.Kind = kops.GroupVersion, kops.KindCluster
	c.Spec = kops.ClusterSpec{
		Channel:           orDefault(o.Channel, kops.DefaultChannel),
		CloudProvider:     cloud,
		KubernetesVersion: kubernetesVersion,
		NetworkCIDR:       networkCIDR,
		NonMasqueradeCIDR: kops.DefaultNonMasqueradeCIDR,
		KubeDNS:           &kops.KubeDNSConfig{Provider: kops.DNSProviderCoreDNS},
	}
	switch strings.ToLower(o.Authorization) {
	case "", "rbac":
		c.Spec.Authorization = &kops.AuthorizationSpec{RBAC: &kops.RBACAuthorizationSpec{}}
	case "alwaysallow":
		c.Spec.Authorization = &kops.AuthorizationSpec{AlwaysAllow: &kops.AlwaysAllowAuthorizationSpec{}}
	default:
		return nil, nil, fmt.Errorf("unsupported --authorization %q: use RBAC or AlwaysAllow", o.Authorization)
	}
	seen := map[string]bool{}
	for _, zone := range o.Zones {
		if seen[zone] {
			return nil, nil, fmt.Errorf("zone %q is listed twice in --zones", zone)
		}
		seen[zone] = true
	}
	// GCE subnets are regional, one for all zones, as kops makes them.
	subnetOf := func(zone string) string { return zone }
	if cloud == "gce" {
		subnetOf = func(string) string { return region }
		c.Spec.Subnets = []kops.ClusterSubnetSpec{{Name: region, Region: region, CIDR: subnetCIDRs[0], Type: kops.SubnetTypePublic}}
	} else {
		for i, zone := range o.Zones {
			c.Spec.Subnets = append(c.Spec.Subnets, kops.ClusterSubnetSpec{
				Name: zone, Zone: zone, CIDR: subnetCIDRs[i], Type: kops.SubnetTypePublic,
			})
		}
	}

	controlPlaneZones := o.ControlPlaneZones
	if len(controlPlaneZones) == 0 {
		controlPlaneZones = o.Zones
	}
	var groups []*kops.InstanceGroup
	for _, zone := range controlPlaneZones {
		if !seen[zone] {
			return nil, nil, fmt.Errorf("control-plane zone %q is not one of the cluster's zones %s", zone, strings.Join(o.Zones, ","))
		}
		groups = append(groups, newGroup(o, cloud, "control-plane-"+zone, kops.RoleControlPlane,
			orDefault(o.ControlPlaneSize, sizes.controlPlane), orDefault(o.ControlPlaneImage, o.Image), 1, []string{zone}, subnetOf))
	}
	nodeCount := o.NodeCount
	if nodeCount == 0 {
		nodeCount = int32(len(o.Zones))
	}
	perZone, remainder := nodeCount/int32(len(o.Zones)), int(nodeCount)%len(o.Zones)
	for i, zone := range o.Zones {
		count := perZone
		if i < remainder {
			count++
		}
		groups = append(groups, newGroup(o, cloud, "nodes-"+zone, kops.RoleNode,
			orDefault(o.NodeSize, sizes.node), orDefault(o.NodeImage, o.Image), count, []string{zone}, subnetOf))
	}
	return c, groups, nil
}

func newGroup(o NewClusterOptions, cloud, name string, role kops.InstanceGroupRole, machineType, image string, size int32,
	zones []string, subnetOf func(zone string) string) *kops.InstanceGroup {
	var subnets []string
	for _, z := range zones {
		if s := subnetOf(z); !slices.Contains(subnets, s) {
			subnets = append(subnets, s)
		}
	}
	g := &kops.InstanceGroup{ObjectMeta: metav1.ObjectMeta{
		Name:   name,
		Labels: map[string]string{kops.LabelClusterName: o.Name},
	}}
	g.APIVersion, g.Kind = kops.GroupVersion, kops.KindInstanceGroup
	minSize, maxSize := size, size
	g.Spec = kops.InstanceGroupSpec{
		Role:        role,
		Image:       image,
		MachineType: machineType,
		MinSize:     &minSize,
		MaxSize:     &maxSize,
		Subnets:     subnets,
	}
	if cloud == "gce" {
		placed := make([]interface{}, 0, len(zones))
		for _, z := range zones {
			placed = append(placed, z)
		}
		g.Unmodeled = kops.Unmodeled{{Path: kops.FieldPath{{Key: "spec"}, {Key: "zones"}}, Value: placed}}
	}
	if cloud == "aws" {
		tokens, hops := "required", int64(DefaultHopLimit)
		g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPTokens: &tokens, HTTPPutResponseHopLimit: &hops}
	}
	return g
}

// splitForZones cuts the network into equal blocks as kops does: the first stays free, zone i gets i+1.
func splitForZones(network string, zones int) ([]string, error) {
	prefix, err := netip.ParsePrefix(network)
	if err != nil {
		return nil, fmt.Errorf("--network-cidr %q: %w", network, err)
	}
	prefix = prefix.Masked()
	extraBits := 3
	for (1<<extraBits)-1 < zones {
		extraBits++
	}
	bits := prefix.Bits() + extraBits
	if bits > prefix.Addr().BitLen()-4 {
		return nil, fmt.Errorf("network %s is too small for %d zones", network, zones)
	}
	out := make([]string, zones)
	for i := range out {
		addr, err := nthBlock(prefix.Addr(), bits, i+1)
		if err != nil {
			return nil, err
		}
		out[i] = netip.PrefixFrom(addr, bits).String()
	}
	return out, nil
}

func nthBlock(base netip.Addr, bits, n int) (netip.Addr, error) {
	v := new(big.Int).SetBytes(base.AsSlice())
	v.Add(v, new(big.Int).Lsh(big.NewInt(int64(n)), uint(base.BitLen()-bits)))
	size := base.BitLen() / 8
	if len(v.Bytes()) > size {
		return netip.Addr{}, fmt.Errorf("block %d of /%d overflows the address space", n, bits)
	}
	addr, _ := netip.AddrFromSlice(v.FillBytes(make([]byte, size)))
	return addr, nil
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// NewInstanceGroup builds what `kops create instancegroup` starts from, as kops does; the caller
// checks it (Check).
func NewInstanceGroup(cluster *kops.Cluster, name string, role kops.InstanceGroupRole, subnets []string) (*kops.InstanceGroup, error) {
	cloud := cluster.Spec.CloudProvider
	sizes, known := machineDefaults[cloud]
	if !known {
		return nil, fmt.Errorf("no default machine type for cloud %q: write the group with 'kops create -f'", cloud)
	}
	if len(subnets) == 0 {
		for _, s := range cluster.Spec.Subnets {
			subnets = append(subnets, s.Name)
		}
	}
	machineType, size := sizes.node, int32(2)
	switch role {
	case kops.RoleControlPlane, kops.RoleMaster, kops.RoleAPIServer:
		machineType, size = sizes.controlPlane, 1
	case kops.RoleBastion:
		size = 1
	}
	g := newGroup(NewClusterOptions{Name: cluster.Name}, cloud, name, role, machineType, "", size, subnets, func(s string) string { return s })
	// newGroup places a GCE group through spec.zones; here it is placed by subnet only.
	g.Unmodeled = nil
	return g, nil
}
