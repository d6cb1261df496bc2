package kops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPodInterfaces(t *testing.T) {
	cases := []struct {
		name  string
		spec  ClusterSpec
		want  []string
		known bool
	}{
		{"calico", ClusterSpec{Networking: &NetworkingSpec{Calico: &CNIPresence{}}}, []string{"cali+"}, true},
		{"canal", ClusterSpec{Networking: &NetworkingSpec{Canal: &CNIPresence{}}}, []string{"cali+"}, true},
		{"cilium", ClusterSpec{Networking: &NetworkingSpec{Cilium: &CiliumNetworkingSpec{}}}, []string{"lxc+"}, true},
		{"amazonvpc", ClusterSpec{Networking: &NetworkingSpec{AmazonVPC: &AmazonVPCNetworkingSpec{}}}, []string{"eni+"}, true},
		{"flannel", ClusterSpec{Networking: &NetworkingSpec{Flannel: &CNIPresence{}}}, []string{"cni0"}, true},
		{"cni", ClusterSpec{Networking: &NetworkingSpec{CNI: &CNIPresence{}}}, []string{"cni0"}, true},
		{"kubenet", ClusterSpec{Networking: &NetworkingSpec{Kubenet: &CNIPresence{}}}, []string{"cbr0"}, true},
		{"weave", ClusterSpec{Networking: &NetworkingSpec{Weave: &CNIPresence{}}}, []string{"weave"}, true},
		{"kuberouter", ClusterSpec{Networking: &NetworkingSpec{KubeRouter: &CNIPresence{}}}, []string{"kube-bridge"}, true},
		{"gce is unknown", ClusterSpec{Networking: &NetworkingSpec{GCE: &CNIPresence{}}}, nil, false},
		{"none selected", ClusterSpec{}, nil, false},
		{"override wins", ClusterSpec{
			Networking:        &NetworkingSpec{Calico: &CNIPresence{}},
			PodMetadataAccess: &PodMetadataAccessSpec{HostInterface: "veth+"},
		}, []string{"veth+"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, known := tc.spec.PodInterfaces()
			assert.Equal(t, tc.known, known)
			assert.Equal(t, tc.want, got)
		})
	}
}
