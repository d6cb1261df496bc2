// Package s3env reads, at the command line edge, what an s3:// store needs: kops and channels
// read the same settings, so a bucket kops update writes to is one channels apply reads from.
package s3env

import (
	"context"
	"os"

	"k8s.io/kops/util/pkg/aws/awscreds"
	"k8s.io/kops/util/pkg/vfs/s3store"
)

// Settings is what an s3:// state store reads from the environment, as kops reads it: kops's
// S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for S3-compatible servers,
// and otherwise the AWS default credential chain and region (AWS_* variables, ~/.aws, container
// and instance roles; package awscreds), looked up only when an s3:// store is used. env is the
// process environment, which the chain gets as a value: nothing below cmd/ reads it.
func Settings(env map[string]string) s3store.Settings {
	return s3store.Settings{
		Endpoint:        env["S3_ENDPOINT"],
		Region:          env["S3_REGION"],
		AccessKeyID:     env["S3_ACCESS_KEY_ID"],
		SecretAccessKey: env["S3_SECRET_ACCESS_KEY"],
		LoadDefault: func(context.Context) (s3store.AWSConfig, error) {
			// A credential_process's prompts and errors reach the user, as with the AWS CLI.
			cfg, err := awscreds.Load(awscreds.Options{Env: env, Stderr: os.Stderr})
			if err != nil {
				return s3store.AWSConfig{}, err
			}
			return s3store.AWSConfig{Region: cfg.Region, Credentials: cfg.Credentials.Retrieve}, nil
		},
	}
}
