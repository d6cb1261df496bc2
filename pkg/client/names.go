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
//
// It is the store's rule, not the whole of what a cluster name must be: the DNS limit of 63
// characters per label is validation's (validation.DNSNameProblems), applied to every cluster that
// enters the store or is updated. A cluster stored under a longer label (by kops, whose rule is this
// one, or by an older build) can still be read, refused with its field path, and deleted.
func ValidateClusterName(name string) error { return validateName("cluster", name) }

// ValidateInstanceGroupName checks an instance group's name by the same rule.
func ValidateInstanceGroupName(name string) error { return validateName("instance group", name) }

func validateName(what, name string) error {
	problems := NameProblems(name)
	if len(problems) == 0 {
		return nil
	}
	if name == "" {
		problems = []string{"Required value"}
	}
	return fmt.Errorf("%w: %s name: metadata.name: Invalid value: %q: %s", ErrInvalidName, what, ShortName(name), strings.Join(problems, "; "))
}

// NameProblems says what keeps name from naming a cluster or an instance group in the store; none
// means it may. Callers that can locate the name (a document's file and line) report these
// themselves before the store refuses the name without a location.
func NameProblems(name string) []string { return validation.IsDNS1123Subdomain(name) }

// ShortName cuts a name that would drown a message, saying how long it was.
func ShortName(name string) string {
	const keep = 64
	if len(name) <= keep {
		return name
	}
	return fmt.Sprintf("%s... (%d characters)", name[:keep], len(name))
}
