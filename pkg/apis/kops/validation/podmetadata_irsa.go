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

package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// validatePodMetadataWithIRSA refuses what cannot work when pods have two ways to AWS credentials:
// instance metadata (the podMetadataAccess mode) and their service accounts' roles (IRSA).
//
// Only one combination contradicts itself: kube2iam's default role being a service account's role.
// kube2iam assumes roles with the node's credentials, and a service account's role trusts nothing
// but that account's token, so every pod without its own annotation would get no credentials at
// all. The rest stay allowed on purpose (docs/metadata-access.md, "Pod IAM: modes and IRSA"):
// Forward next to IRSA is how workloads move off kube2iam one at a time, and Allow next to IRSA
// works but leaves the node's role to every pod, which update says as a warning.
func validatePodMetadataWithIRSA(c *kops.Cluster) field.ErrorList {
	p := c.Spec.PodMetadataAccess
	if p == nil || p.Mode != kops.PodMetadataAccessForward || p.Forward == nil || p.Forward.DefaultRole == "" {
		return nil
	}
	irsa := c.ServiceAccountRolesField()
	if irsa == "" {
		return nil
	}
	role := p.Forward.DefaultRole
	name := role[strings.LastIndex(role, "/")+1:]
	if !isServiceAccountRoleName(name, c.Name) {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("spec", "podMetadataAccess", "forward", "defaultRole"), role, fmt.Sprintf(
		"is a service account's role (kops names them <sa>.<namespace>.sa.%s, with %s), which trusts only that service account's token; kube2iam assumes roles with the node's credentials and could never get it for a pod: name a role under baseRoleARN that trusts the nodes' role, or leave defaultRole unset",
		c.Name, irsa))}
}

// isServiceAccountRoleName: kops names a service account's role <sa>.<namespace>.sa.<cluster>, and
// a name longer than IAM's 64 characters is cut to 57 and ends in "-" and six characters of a hash.
func isServiceAccountRoleName(name, cluster string) bool {
	i := strings.LastIndex(name, ".sa.")
	if i <= 0 {
		return false
	}
	rest := name[i+len(".sa."):]
	if rest == cluster {
		return true
	}
	const hashed = len("-abcdef")
	return len(name) == maxIAMRoleName && len(rest) > hashed && rest[len(rest)-hashed] == '-' &&
		strings.HasPrefix(cluster, rest[:len(rest)-hashed])
}

// maxIAMRoleName is IAM's limit on a role's name.
const maxIAMRoleName = 64
