// Package nodesetup builds what runs on a machine before kubelet: the pod metadata-access rules
// (a script and a oneshot systemd unit), carried in the launch template's user data as cloud-init
// write_files and written to the state store with the instance group's node configuration.
package nodesetup

import (
	"k8s.io/kops/pkg/apis/kops"
)

// UserData returns the user data of an instance group's machines, as the launch template carries it.
// The cluster must be completed (kops.CompleteCluster). Contract for the AWS model: deterministic
// bytes for the same inputs.
//
// TODO(node rules): the rules of spec.podMetadataAccess; until then the user data is an empty
// cloud-config.
func UserData(cluster *kops.Cluster, ig *kops.InstanceGroup) ([]byte, error) {
	return []byte("#cloud-config\n"), nil
}
