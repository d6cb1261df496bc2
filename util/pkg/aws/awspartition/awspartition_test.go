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

package awspartition_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/util/pkg/aws/awspartition"
)

// TestOf: a region of every partition the SDK knows gets that partition; an unknown region or
// none is in aws.
func TestOf(t *testing.T) {
	cases := []struct {
		region string
		want   string
	}{
		{"us-east-1", "aws"},
		{"eu-west-3", "aws"},
		{"il-central-1", "aws"},
		{"mx-central-1", "aws"},
		{"cn-north-1", "aws-cn"},
		{"cn-northwest-1", "aws-cn"},
		{"us-gov-west-1", "aws-us-gov"},
		{"us-gov-east-1", "aws-us-gov"},
		{"us-iso-east-1", "aws-iso"},
		{"us-iso-west-1", "aws-iso"},
		{"us-isob-east-1", "aws-iso-b"},
		{"eu-isoe-west-1", "aws-iso-e"},
		{"us-isof-south-1", "aws-iso-f"},
		{"us-isof-east-1", "aws-iso-f"},
		{"eusc-de-east-1", "aws-eusc"},
		{"", "aws"},
	}
	for _, tc := range cases {
		t.Run(tc.region, func(t *testing.T) {
			assert.Equal(t, tc.want, awspartition.Of(tc.region))
		})
	}
}
