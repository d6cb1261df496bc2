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

package sshcredentials

import (
	"crypto/md5" //nolint:gosec // the OpenSSH legacy fingerprint kops names stored keys by, not a security check
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Parse reads one authorized_keys line; anything after the first key is refused, so that a pasted
// private key or a second key is not stored.
func Parse(publicKey string) (ssh.PublicKey, error) {
	text := strings.TrimSpace(publicKey)
	if text == "" {
		return nil, errors.New("is empty")
	}
	if strings.Contains(text, "PRIVATE KEY") {
		return nil, errors.New("is a private key; give the public key (the .pub file)")
	}
	key, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("is not an SSH public key in authorized_keys form (e.g. ssh-ed25519 AAAA... user@host): %w", err)
	}
	if len(options) > 0 {
		// Options (command=, from=, ...) would be copied to every machine's authorized_keys.
		return nil, fmt.Errorf("has authorized_keys options (%s); give the bare key", strings.Join(options, ","))
	}
	if len(strings.TrimSpace(string(rest))) > 0 {
		return nil, errors.New("holds more than one key; give one SSHCredential per key")
	}
	return key, nil
}

// ID is kops's name for a stored key: the hex MD5 fingerprint of its wire form.
func ID(key ssh.PublicKey) string {
	sum := md5.Sum(key.Marshal()) //nolint:gosec // see the import
	return hex.EncodeToString(sum[:])
}
