package awscreds_test

import (
	"crypto/sha1"
	"encoding/hex"

	"k8s.io/kops/util/pkg/aws/sigv4"
)

type awsCreds = sigv4.Credentials

func sha1hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
