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

var ErrInvalidName = errors.New("invalid name")

// ValidateClusterName requires a DNS-1123 subdomain, so a name is exactly one store path element.
// The 63-character label limit is validation's, so clusters stored with longer labels can still be
// read and deleted.
func ValidateClusterName(name string) error { return validateName("cluster", name) }

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

// NameProblems says what keeps name from naming a cluster or instance group in the store.
func NameProblems(name string) []string { return validation.IsDNS1123Subdomain(name) }

func ShortName(name string) string {
	const keep = 64
	if len(name) <= keep {
		return name
	}
	return fmt.Sprintf("%s... (%d characters)", name[:keep], len(name))
}
