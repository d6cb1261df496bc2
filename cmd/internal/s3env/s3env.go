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
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"

	"k8s.io/kops/util/pkg/vfs/s3store"
)

// Settings is what an s3:// state store reads from the environment, as kops reads it: kops's
// S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for S3-compatible servers,
// KOPS_STATE_S3_ACL for the canned ACL of every object written, and otherwise the AWS SDK's
// default configuration (AWS_* variables, ~/.aws, SSO, container and instance roles, the region of
// the instance's metadata), loaded only when an s3:// store is first used. env is the process
// environment the command was given.
func Settings(env map[string]string) s3store.Settings {
	return s3store.Settings{
		Endpoint:        env["S3_ENDPOINT"],
		Region:          env["S3_REGION"],
		AccessKeyID:     env["S3_ACCESS_KEY_ID"],
		SecretAccessKey: env["S3_SECRET_ACCESS_KEY"],
		ACL:             strings.TrimSpace(env["KOPS_STATE_S3_ACL"]),
		LoadDefault:     func(ctx context.Context) (aws.Config, error) { return loadDefault(ctx, env["S3_REGION"]) },
	}
}

// loadDefault is the AWS SDK's default configuration. The SDK reads the process environment and
// the shared files itself: this function, handed down from the cmd edge, is the one place below
// main where that happens, and only when an s3:// store is used. region (S3_REGION) is the
// configuration's region when set; otherwise the SDK's chain (AWS_REGION, the profile) names it,
// and failing that the instance's metadata, as kops on an EC2 instance expects. Off EC2 the
// metadata does not answer: the region is then left to the store (the bucket's own).
func loadDefault(ctx context.Context, region string) (aws.Config, error) {
	env, err := config.NewEnvConfig()
	if err != nil {
		return aws.Config{}, err
	}
	dir, err := os.MkdirTemp("", "kops-aws-")
	if err != nil {
		return aws.Config{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }() // the SDK has read the copies once loaded
	opts, shared, err := boundedFiles(ctx, env, dir)
	if err != nil {
		return aws.Config{}, fmt.Errorf("%w: %w", s3store.ErrSettings, err)
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return cfg, errors.New(originalNames(env, dir).Replace(err.Error()))
	}
	cfg = boundProcess(cfg, env, shared)
	if cfg.Credentials != nil {
		cfg.Credentials = namedCredentials{cfg.Credentials, credentialSource(cfg)}
	}
	if cfg.Region != "" {
		return cfg, nil
	}
	// Not config.WithEC2IMDSRegion: it fails the whole configuration where no metadata answers.
	imdsCtx, cancel := context.WithTimeout(ctx, imdsTimeout)
	defer cancel()
	if out, err := imds.NewFromConfig(cfg).GetRegion(imdsCtx, nil); err == nil {
		cfg.Region = out.Region
	}
	return cfg, nil
}

// imdsTimeout bounds asking the instance metadata for the region: off EC2 nothing answers.
const imdsTimeout = 2 * time.Second
