package client

import (
	"fmt"

	"k8s.io/kops/pkg/sshcredentials"
	"k8s.io/kops/util/pkg/vfs"
)

// sshPublicKeyPath is where kops keeps a cluster's SSH public key:
// <store>/<cluster>/pki/ssh/public/admin/<id>, id being the key's MD5 fingerprint in hex.
func (c *Clientset) sshPublicKeyPath(cluster, publicKey string) (vfs.Path, error) {
	key, err := sshcredentials.Parse(publicKey)
	if err != nil {
		return nil, fmt.Errorf("SSH public key for cluster %q %w", cluster, err)
	}
	return c.clusterDir(cluster).Join("pki", "ssh", "public", "admin", sshcredentials.ID(key)), nil
}

// AddSSHPublicKey stores an SSH public key for an existing cluster, as `kops create -f` does with an
// SSHCredential. Storing the same key again rewrites the same file.
func (c *Clientset) AddSSHPublicKey(cluster, publicKey string) error {
	if err := ValidateClusterName(cluster); err != nil {
		return err
	}
	p, err := c.sshPublicKeyPath(cluster, publicKey)
	if err != nil {
		return err
	}
	unlock, err := c.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return c.replace(p, []byte(publicKey), nil, fmt.Sprintf("SSH public key of cluster %q", cluster), cluster)
}
