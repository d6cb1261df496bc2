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

package client

import (
	"fmt"

	"k8s.io/kops/pkg/sshcredentials"
	"k8s.io/kops/util/pkg/vfs"
)

func (c *Clientset) sshPublicKeyPath(cluster, publicKey string) (vfs.Path, error) {
	key, err := sshcredentials.Parse(publicKey)
	if err != nil {
		return nil, fmt.Errorf("SSH public key for cluster %q %w", cluster, err)
	}
	return c.clusterDir(cluster).Join("pki", "ssh", "public", "admin", sshcredentials.ID(key)), nil
}

// AddSSHPublicKey stores a key for an existing cluster; storing the same key again rewrites its file.
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
