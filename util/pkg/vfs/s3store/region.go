package s3store

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// bucketRegion asks S3 where the bucket is: HeadBucket names it in x-amz-bucket-region, on success
// and on the 301 (or 403) a request signed for another region gets alike.
func bucketRegion(ctx context.Context, c *s3.Client, bucket string) (string, error) {
	out, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)})
	if err == nil {
		return aws.ToString(out.BucketRegion), nil
	}
	var respErr *smithyhttp.ResponseError
	if errors.As(err, &respErr) && respErr.Response != nil {
		if r := respErr.Response.Header.Get("X-Amz-Bucket-Region"); r != "" {
			return r, nil
		}
	}
	return "", err
}
