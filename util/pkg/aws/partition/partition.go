// Package partition says which AWS partition a region belongs to: the partition's name (the second
// field of every ARN kops writes into IAM policies) and the domain of its service endpoints (where
// the state store's S3 client and credential chain send their requests).
package partition

import "strings"

// Partition is one AWS partition.
type Partition struct {
	// Name is the partition as ARNs name it: aws, aws-cn, aws-us-gov, aws-iso, aws-iso-b.
	Name string
	// DNSSuffix is the domain of the partition's endpoints, e.g. amazonaws.com.
	DNSSuffix string
}

// partitions are the partitions other than aws, by the prefix of their regions' names; a longer
// prefix comes before a shorter one it starts with.
var partitions = []struct {
	prefix string
	Partition
}{
	{"cn-", Partition{"aws-cn", "amazonaws.com.cn"}},
	{"us-gov-", Partition{"aws-us-gov", "amazonaws.com"}},
	{"us-isob-", Partition{"aws-iso-b", "sc2s.sgov.gov"}},
	{"us-iso-", Partition{"aws-iso", "c2s.ic.gov"}},
}

// Of is the partition of region; any region of no other partition is in aws.
func Of(region string) Partition {
	for _, p := range partitions {
		if strings.HasPrefix(region, p.prefix) {
			return p.Partition
		}
	}
	return Partition{"aws", "amazonaws.com"}
}
