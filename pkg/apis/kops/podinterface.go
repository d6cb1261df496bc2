package kops

// PodInterfaces returns the iptables interface patterns (-i) through which the cluster's pods send
// traffic into the node, and whether they are known: from spec.podMetadataAccess.hostInterface when
// set, else derived from the selected CNI. An unknown CNI (or none selected) returns false: rules
// that must match pod traffic cannot be written without the user naming the interface.
func (s *ClusterSpec) PodInterfaces() ([]string, bool) {
	if p := s.PodMetadataAccess; p != nil && p.HostInterface != "" {
		return []string{p.HostInterface}, true
	}
	n := s.Networking
	if n == nil {
		return nil, false
	}
	switch {
	// Canal is Calico's policy on flannel's network: its pods still attach through cali* veths.
	case n.Calico != nil, n.Canal != nil:
		return []string{"cali+"}, true
	case n.Cilium != nil:
		return []string{"lxc+"}, true
	case n.AmazonVPC != nil:
		return []string{"eni+"}, true
	// Flannel and the generic bridge CNI put pod veths on the cni0 bridge; iptables sees the bridge.
	case n.Flannel != nil, n.CNI != nil:
		return []string{"cni0"}, true
	case n.Kubenet != nil:
		return []string{"cbr0"}, true
	case n.Weave != nil:
		return []string{"weave"}, true
	case n.KubeRouter != nil:
		return []string{"kube-bridge"}, true
	}
	return nil, false
}
