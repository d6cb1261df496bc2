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
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/config"
)

// maxAWSFile bounds each file the AWS settings name. The SDK reads them whole, without a bound, so
// a setting pointing at /dev/zero or a huge file would take all memory before any error.
const maxAWSFile = 1 << 20

// checkAWSFiles refuses, before the SDK reads them, the files the AWS environment names (or the
// default ~/.aws files) that are no regular file or are larger than maxAWSFile. The names are the
// SDK's own reading of the environment (config.NewEnvConfig), so this checks what it will open. A
// missing file is left to the SDK, which treats the shared files as optional.
func checkAWSFiles() error {
	env, err := config.NewEnvConfig()
	if err != nil {
		return err
	}
	files := []struct{ setting, path string }{
		{"AWS_CONFIG_FILE", orDefault(env.SharedConfigFile, config.DefaultSharedConfigFilename())},
		{"AWS_SHARED_CREDENTIALS_FILE", orDefault(env.SharedCredentialsFile, config.DefaultSharedCredentialsFilename())},
		{"AWS_CA_BUNDLE", env.CustomCABundle},
		{"AWS_WEB_IDENTITY_TOKEN_FILE", env.WebIdentityTokenFilePath},
	}
	for _, f := range files {
		if f.path == "" {
			continue
		}
		info, err := os.Stat(f.path)
		switch {
		case os.IsNotExist(err):
			continue
		case err != nil:
			return fmt.Errorf("%s: %w", f.setting, err)
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s names %s, which is not a regular file", f.setting, f.path)
		case info.Size() > maxAWSFile:
			return fmt.Errorf("%s names %s, of %d bytes: more than the %d an AWS settings file may have", f.setting, f.path, info.Size(), maxAWSFile)
		}
	}
	return nil
}

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
