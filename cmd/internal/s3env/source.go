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
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"

	"k8s.io/kops/util/pkg/vfs/s3store"
)

// namedCredentials names the source of the default chain's credentials in their errors: the SDK's
// own message of a failed source is often bare ("failed to load credentials, : "), and the user
// must know which source to fix.
type namedCredentials struct {
	aws.CredentialsProvider
	source string
}

func (n namedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	creds, err := n.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return creds, fmt.Errorf("from %s: %w", n.source, err)
	}
	return creds, nil
}

// credentialSource says which source the SDK's default chain takes its credentials from, read
// from the settings the SDK loaded, in the chain's order: keys in the environment, a web identity
// token file, the profile (keys, role, SSO, credential_process), a container's credential
// endpoint, the instance's role.
func credentialSource(cfg aws.Config) string {
	var env config.EnvConfig
	var shared config.SharedConfig
	for _, s := range cfg.ConfigSources {
		switch s := s.(type) {
		case config.EnvConfig:
			env = s
		case config.SharedConfig:
			shared = s
		}
	}
	profile := shared.Profile
	switch {
	case env.Credentials.HasKeys():
		return "the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY environment variables"
	case env.WebIdentityTokenFilePath != "":
		return "the web identity token file of AWS_WEB_IDENTITY_TOKEN_FILE (role " + env.RoleARN + ")"
	case shared.Credentials.HasKeys():
		return fmt.Sprintf("the keys of AWS profile %q", profile)
	case shared.RoleARN != "":
		return fmt.Sprintf("role %s of AWS profile %q", shared.RoleARN, profile)
	case shared.SSOSessionName != "" || shared.SSOStartURL != "":
		return fmt.Sprintf("the SSO login of AWS profile %q (run `aws sso login --profile %s` if it expired)", profile, profile)
	case shared.CredentialProcess != "":
		return fmt.Sprintf("the credential_process of AWS profile %q", profile)
	case env.ContainerCredentialsEndpoint != "":
		return "container credentials at " + s3store.RedactURL(env.ContainerCredentialsEndpoint)
	case env.ContainerCredentialsRelativePath != "":
		return "container credentials at http://169.254.170.2" + env.ContainerCredentialsRelativePath
	}
	return "the EC2 instance's role (instance metadata); no other AWS credentials are configured"
}
