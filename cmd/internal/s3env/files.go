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
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"

	"k8s.io/kops/util/pkg/vfs"
)

// boundedFiles reads every file the AWS settings name through the store's bounded, regular-file
// read, and returns options that hand the SDK what was read instead of the names: the SDK reads
// its files whole, so /dev/zero or an endless file would take all memory. The shared config and
// credentials files become copies in dir (the SDK takes them by name only); the CA bundle (of
// AWS_CA_BUNDLE or the profile's ca_bundle) goes in as bytes; the web identity token (of
// AWS_WEB_IDENTITY_TOKEN_FILE or the profile's web_identity_token_file) is read, bounded, on each
// use. A missing shared file is left out, as the SDK leaves it; a missing CA bundle is an error
// naming its setting.
func boundedFiles(ctx context.Context, env config.EnvConfig, dir string) ([]func(*config.LoadOptions) error, config.SharedConfig, error) {
	configFiles, err := copyBounded("AWS_CONFIG_FILE", orDefault(env.SharedConfigFile, config.DefaultSharedConfigFilename()), dir, "config")
	if err != nil {
		return nil, config.SharedConfig{}, err
	}
	credentialsFiles, err := copyBounded("AWS_SHARED_CREDENTIALS_FILE", orDefault(env.SharedCredentialsFile, config.DefaultSharedCredentialsFilename()), dir, "credentials")
	if err != nil {
		return nil, config.SharedConfig{}, err
	}
	opts := []func(*config.LoadOptions) error{config.WithSharedConfigFiles(configFiles), config.WithSharedCredentialsFiles(credentialsFiles)}
	profile := orDefault(env.SharedConfigProfile, "default")
	shared, err := config.LoadSharedConfigProfile(ctx, profile, func(o *config.LoadSharedConfigOptions) {
		o.ConfigFiles, o.CredentialsFiles = configFiles, credentialsFiles
	})
	var missing config.SharedConfigProfileNotExistError
	if err != nil && !errors.As(err, &missing) {
		return nil, shared, fmt.Errorf("AWS profile %q: %s", profile, originalNames(env, dir).Replace(err.Error()))
	}

	caSetting, caPath := "AWS_CA_BUNDLE", env.CustomCABundle
	if caPath == "" {
		caSetting, caPath = fmt.Sprintf("ca_bundle of AWS profile %q", profile), shared.CustomCABundle
	}
	if caPath != "" {
		data, err := readBounded(caSetting, caPath)
		if err != nil {
			return nil, shared, fmt.Errorf("%w; set it to a PEM file of the CA that issued the S3 endpoint's certificate, or unset it", err)
		}
		opts = append(opts, config.WithCustomCABundle(bytes.NewReader(data)))
	}

	tokenSetting, tokenPath := "AWS_WEB_IDENTITY_TOKEN_FILE", env.WebIdentityTokenFilePath
	for p := &shared; tokenPath == "" && p != nil; p = p.Source {
		tokenSetting, tokenPath = fmt.Sprintf("web_identity_token_file of AWS profile %q", p.Profile), p.WebIdentityTokenFile
	}
	if tokenPath != "" {
		token := tokenFile{setting: tokenSetting, path: tokenPath}
		opts = append(opts, config.WithWebIdentityRoleCredentialOptions(func(o *stscreds.WebIdentityRoleOptions) { o.TokenRetriever = token }))
	}
	return opts, shared, nil
}

// originalNames puts the user's file names back in the SDK's messages, which name the copies.
func originalNames(env config.EnvConfig, dir string) *strings.Replacer {
	return strings.NewReplacer(
		filepath.Join(dir, "config"), orDefault(env.SharedConfigFile, config.DefaultSharedConfigFilename()),
		filepath.Join(dir, "credentials"), orDefault(env.SharedCredentialsFile, config.DefaultSharedCredentialsFilename()))
}

// readBounded reads a file an AWS setting names, naming the setting in every error.
func readBounded(setting, path string) ([]byte, error) {
	data, err := vfs.ReadLocalFile(path, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s names %s, which does not exist", setting, path)
	case err != nil:
		return nil, fmt.Errorf("%s names %s: %w", setting, path, err)
	}
	return data, nil
}

// copyBounded copies a shared AWS file, read bounded, into dir, and returns the copy's name for
// the SDK; none when the file does not exist (the SDK treats the shared files as optional).
func copyBounded(setting, path, dir, name string) ([]string, error) {
	data, err := vfs.ReadLocalFile(path, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return []string{}, nil
	case err != nil:
		return nil, fmt.Errorf("%s names %s: %w", setting, path, err)
	}
	copyPath := filepath.Join(dir, name)
	if err := os.WriteFile(copyPath, data, 0o600); err != nil {
		return nil, fmt.Errorf("copying %s (%s): %w", setting, path, err)
	}
	return []string{copyPath}, nil
}

// tokenFile is the web identity token, read bounded on each use, as the SDK's own reads it on each.
type tokenFile struct{ setting, path string }

func (t tokenFile) GetIdentityToken() ([]byte, error) { return readBounded(t.setting, t.path) }

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
