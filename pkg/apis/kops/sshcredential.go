package kops

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SSHCredential is an SSH public key for the cluster's machines, as `kops create -f` accepts it. It
// is not stored as an object: the key itself is stored at <cluster>/pki/ssh/public/admin/<id>, where
// kops keeps it.
type SSHCredential struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SSHCredentialSpec `json:"spec,omitempty"`
}

// SSHCredentialSpec holds the key in authorized_keys form.
type SSHCredentialSpec struct {
	PublicKey string `json:"publicKey,omitempty"`
}
