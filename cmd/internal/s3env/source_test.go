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

package s3env

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCredentialSourceNamesTheChainsChoice: the source named in a credentials error is the one
// the SDK's default chain takes, in its order, from the settings the SDK itself loaded.
func TestCredentialSourceNamesTheChainsChoice(t *testing.T) {
	profiles := "[profile keys]\naws_access_key_id = AKID\naws_secret_access_key = s\n" +
		"[profile role]\nrole_arn = arn:aws:iam::123456789012:role/kops\nsource_profile = keys\n" +
		"[profile sso]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = admin\n" +
		"[sso-session corp]\nsso_start_url = https://corp.example.com/start\nsso_region = us-east-1\n" +
		"[profile process]\ncredential_process = /bin/false\n"
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"environment keys win", map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s", "AWS_PROFILE": "role"},
			"the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY environment variables"},
		{"profile keys", map[string]string{"AWS_PROFILE": "keys"}, `the keys of AWS profile "keys"`},
		{"role", map[string]string{"AWS_PROFILE": "role"}, `role arn:aws:iam::123456789012:role/kops of AWS profile "role"`},
		{"SSO", map[string]string{"AWS_PROFILE": "sso"}, `the SSO login of AWS profile "sso"`},
		{"credential_process", map[string]string{"AWS_PROFILE": "process"}, `the credential_process of AWS profile "process"`},
		{"container", map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://user:pw@127.0.0.1:9/creds?token=x"}, "container credentials at http://127.0.0.1:9/creds"},
		{"nothing", nil, "the EC2 instance's role (instance metadata)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "AWS_") {
					t.Setenv(k, "")
					require.NoError(t, os.Unsetenv(k))
				}
			}
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "config"), []byte(profiles), 0o600))
			t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
			t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			cfg, err := config.LoadDefaultConfig(t.Context(), config.WithRegion("us-east-1"))
			require.NoError(t, err)
			got := credentialSource(cfg)
			assert.Contains(t, got, tt.want)
			assert.NotContains(t, got, "pw")
		})
	}
}
