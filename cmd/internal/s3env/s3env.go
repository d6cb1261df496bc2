// Package s3env reads, at the command line edge, what an s3:// store needs: kops and channels
// read the same settings, so a bucket kops update writes to is one channels apply reads from.
package s3env

import (
	"context"
	"errors"
	"fmt"
	"os"

	"k8s.io/kops/util/pkg/aws/awscreds"
	"k8s.io/kops/util/pkg/aws/awshttp"
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
			if err := unsupported(cfg); env["S3_ENDPOINT"] == "" && err != nil {
				return s3store.AWSConfig{}, err
			}
			return s3store.AWSConfig{Region: cfg.Region, Credentials: cfg.Credentials.Retrieve, TLS: cfg.TLS}, nil
		},
	}
}

// unsupported refuses, unless S3_ENDPOINT names the endpoint, AWS settings that would send S3
// requests elsewhere than the store's own addressing does (the AWS SDK honoured them before kops had its own client): followed silently,
// they would reach AWS's default endpoint with the user's credentials instead of the one meant.
func unsupported(cfg awscreds.Config) error {
	switch {
	case cfg.S3Endpoint != "":
		return fmt.Errorf("an S3 endpoint is configured for the AWS SDKs (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, or endpoint_url in the AWS profile): "+
			"kops's s3:// store reads S3_ENDPOINT instead; set S3_ENDPOINT=%s (addressed path-style), or AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true to use AWS's", awshttp.RedactURL(cfg.S3Endpoint))
	case cfg.FIPS:
		return errors.New("AWS_USE_FIPS_ENDPOINT (or use_fips_endpoint in the AWS profile) is set: kops's s3:// store does not choose FIPS endpoints itself; " +
			"set S3_ENDPOINT=https://s3-fips.REGION.amazonaws.com and S3_REGION=REGION")
	case cfg.DualStack:
		return errors.New("AWS_USE_DUALSTACK_ENDPOINT (or use_dualstack_endpoint in the AWS profile) is set: kops's s3:// store does not choose dual-stack endpoints itself; " +
			"set S3_ENDPOINT=https://s3.dualstack.REGION.amazonaws.com and S3_REGION=REGION")
	}
	return nil
}
