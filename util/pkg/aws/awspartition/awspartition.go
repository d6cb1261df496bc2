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

package awspartition

import (
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Of is the partition of region; an unknown region is in aws, as the SDK resolves it.
func Of(region string) string {
	if region == "" {
		return "aws"
	}
	// S3 is in every partition, so its endpoint table names the region's partition.
	ep, err := s3.NewDefaultEndpointResolver().ResolveEndpoint(region, s3.EndpointResolverOptions{})
	if err != nil || ep.PartitionID == "" {
		return "aws"
	}
	return ep.PartitionID
}
