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
	"bytes"
	"crypto/ed25519"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"k8s.io/kops/util/pkg/allocbound"
)

var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// FuzzParse: a public key comes from `kops create secret sshpublickey`, `--ssh-public-key` or an
// SSHCredential document. Parsing must not panic and must work in proportion to the input; a key
// it accepts is exactly one bare key (no private key, no options, nothing after it) that writes
// out to a line parsed back to the same key, and its ID, which names a file in the state store, is
// 32 hex digits.
func FuzzParse(f *testing.F) {
	pub, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public())
	require.NoError(f, err)
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
	for _, s := range []string{
		line + " admin@example.com",
		"\n" + line + "\n\n",
		`command="x",from="10.0.0.0/8" ` + line,
		line + "\n" + line,
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
		"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var key ssh.PublicKey
		var err error
		allocbound.Check(t, len(text), func() { key, err = Parse(text) })
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		assert.NotContains(t, text, "PRIVATE KEY")
		_, _, options, rest, err := ssh.ParseAuthorizedKey([]byte(strings.TrimSpace(text)))
		require.NoError(t, err)
		assert.Empty(t, options)
		assert.Empty(t, strings.TrimSpace(string(rest)))

		again, err := Parse(string(ssh.MarshalAuthorizedKey(key)))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(key.Marshal(), again.Marshal()), "a key written out parses to another key")
		assert.Regexp(t, hexID, ID(key))
		assert.Equal(t, ID(key), ID(again))
	})
}
