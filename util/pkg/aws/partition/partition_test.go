package partition

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOf(t *testing.T) {
	cases := []struct {
		region string
		want   Partition
	}{
		{"us-east-1", Partition{"aws", "amazonaws.com"}},
		{"eu-west-3", Partition{"aws", "amazonaws.com"}},
		{"cn-north-1", Partition{"aws-cn", "amazonaws.com.cn"}},
		{"us-gov-west-1", Partition{"aws-us-gov", "amazonaws.com"}},
		{"us-iso-east-1", Partition{"aws-iso", "c2s.ic.gov"}},
		{"us-isob-east-1", Partition{"aws-iso-b", "sc2s.sgov.gov"}},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Of(tc.region), tc.region)
	}
}
