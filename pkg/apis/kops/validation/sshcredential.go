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
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/sshcredentials"
)

func ValidateSSHCredential(c *kops.SSHCredential) field.ErrorList {
	var errs field.ErrorList
	labelPath := field.NewPath("metadata", "labels").Key(kops.LabelClusterName)
	switch owner := c.Labels[kops.LabelClusterName]; owner {
	case "":
		errs = append(errs, field.Required(labelPath, "names the cluster the key is for"))
	default:
		errs = append(errs, ValidateClusterReference(owner, labelPath)...)
	}
	keyPath := field.NewPath("spec", "publicKey")
	if c.Spec.PublicKey == "" {
		return append(errs, field.Required(keyPath, "an SSH public key, e.g. the contents of ~/.ssh/id_ed25519.pub"))
	}
	if _, err := sshcredentials.Parse(c.Spec.PublicKey); err != nil {
		// Not echoed: a pasted private key must not end up in the terminal or logs.
		errs = append(errs, field.Invalid(keyPath, "<key not shown>", err.Error()))
	}
	return errs
}

// ValidateClusterReference requires a DNS subdomain, so a cluster name can never climb out of the
// state store (../x) or into a subdirectory.
func ValidateClusterReference(name string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range DNSNameProblems(name) {
		errs = append(errs, field.Invalid(path, name, msg))
	}
	return errs
}
