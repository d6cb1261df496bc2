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
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"
)

func authorizedKey(t *testing.T, pub interface{}) string {
	t.Helper()
	k, err := ssh.NewPublicKey(pub)
	require.NoError(t, err)
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

func TestParseAndID(t *testing.T) {
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)

	for name, text := range map[string]string{
		"ed25519 with comment": authorizedKey(t, edPub) + " admin@example.com",
		"rsa with blank lines": "\n" + authorizedKey(t, &rsaKey.PublicKey) + "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			key, err := Parse(text)
			require.NoError(t, err)
			id := ID(key)
			assert.Len(t, id, 32, "hex of an MD5 sum")
			assert.NotContains(t, id, ":")
			// The ID is the usual colon-separated legacy fingerprint without its colons.
			assert.Equal(t, strings.ReplaceAll(strings.TrimPrefix(ssh.FingerprintLegacyMD5(key), "MD5:"), ":", ""), id)
		})
	}
}

func TestParseRefuses(t *testing.T) {
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	good := authorizedKey(t, edPub)
	cases := map[string]struct{ text, want string }{
		"empty":          {"  \n", "is empty"},
		"garbage":        {"ssh-rsa not-base64!", "not an SSH public key"},
		"truncated blob": {good[:len(good)-8], "not an SSH public key"},
		"private key":    {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----", "private key"},
		"two keys":       {good + "\n" + good, "more than one key"},
		"with options":   {`command="/bin/sh" ` + good, "has authorized_keys options"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(tc.text)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
