package client

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// ErrInvalidName is returned, wrapped, for a cluster or instance-group name that cannot name a
// folder or file of the state store.
var ErrInvalidName = errors.New("invalid name")

// ValidateClusterName checks a cluster name wherever it comes from (an argument, --name,
// KOPS_CLUSTER_NAME, a document): a lowercase DNS-1123 subdomain of at most 253 characters, so it
// is one path element of the store and never "", ".", ".." or anything with a "/".
func ValidateClusterName(name string) error { return validateName("cluster", name) }

// ValidateInstanceGroupName checks an instance group's name by the same rule.
func ValidateInstanceGroupName(name string) error { return validateName("instance group", name) }

func validateName(what, name string) error {
	problems := validation.IsDNS1123Subdomain(name)
	if len(problems) == 0 {
		return nil
	}
	if name == "" {
		problems = []string{"Required value"}
	}
	return fmt.Errorf("%w: %s name: metadata.name: Invalid value: %s: %s", ErrInvalidName, what, shorten(name), strings.Join(problems, "; "))
}

// shorten quotes a name for a message, cutting one that would drown the message.
func shorten(name string) string {
	const keep = 64
	if len(name) <= keep {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q... (%d characters)", name[:keep], len(name))
}
