// Package s3env reads, at the command line edge, what an s3:// store needs: kops and channels
// read the same settings, so a bucket kops update writes to is one channels apply reads from.
package s3env

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/config"

	"k8s.io/kops/util/pkg/aws/sigv4"
	"k8s.io/kops/util/pkg/vfs/s3store"
)

// Settings is what an s3:// state store reads from the environment, as kops reads it: kops's
// S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for S3-compatible servers,
// and otherwise the AWS default credential chain and region (AWS_* variables, ~/.aws, instance
// roles), which the SDK's loader reads here at the edge, only when an s3:// store is used.
func Settings(env map[string]string) s3store.Settings {
	return s3store.Settings{
		Endpoint:        env["S3_ENDPOINT"],
		Region:          env["S3_REGION"],
		AccessKeyID:     env["S3_ACCESS_KEY_ID"],
		SecretAccessKey: env["S3_SECRET_ACCESS_KEY"],
		LoadDefault: func(ctx context.Context) (s3store.AWSConfig, error) {
			cfg, err := config.LoadDefaultConfig(ctx)
			if err != nil {
				return s3store.AWSConfig{}, err
			}
			return s3store.AWSConfig{Region: cfg.Region, Credentials: func(ctx context.Context) (sigv4.Credentials, error) {
				c, err := cfg.Credentials.Retrieve(ctx)
				return sigv4.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken, Source: c.Source}, err
			}}, nil
		},
	}
}
