// Package s3env reads, at the command line edge, what an s3:// store needs: kops and channels
// read the same settings, so a bucket kops update writes to is one channels apply reads from.
package s3env

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"

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
		ACL:             env["KOPS_STATE_S3_ACL"],
		LoadDefault:     loadDefault,
	}
}

// loadDefault is the AWS SDK's default configuration. The SDK reads the process environment and
// the shared files itself: this function, handed down from the cmd edge, is the one place below
// main where that happens, and only when an s3:// store is used. The region falls back to the
// instance's metadata, as kops on an AWS instance expects.
func loadDefault(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithEC2IMDSRegion())
}
