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

package coredns

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// CorefileChecksumAnnotation is on CoreDNS's pod template and holds spec.corefileChecksum, so that a
// Corefile change rolls CoreDNS out (new pods read the new ConfigMap at start) within seconds,
// instead of waiting for the kubelet to sync the ConfigMap volume and the reload plugin to notice.
const CorefileChecksumAnnotation = "coredns.addons.k8s.io/corefile-sha256"

// CorefileChecksumPattern is what the CRD admits in spec.corefileChecksum: a lowercase hex SHA-256.
const CorefileChecksumPattern = `^[0-9a-f]{64}$`

// CorefileChecksum is the lowercase hex SHA-256 of the Corefile's bytes, what kops writes into
// spec.corefileChecksum next to spec.corefile.
func CorefileChecksum(corefile string) string {
	sum := sha256.Sum256([]byte(corefile))
	return hex.EncodeToString(sum[:])
}

// CheckCorefileChecksum refuses a spec whose checksum is not that of its Corefile. The admission
// policy binds the pod template's annotation to spec.corefileChecksum (CEL cannot hash), so this
// check is what keeps a hand edit of spec.corefile alone from applying a pod template that does
// not roll for it.
func CheckCorefileChecksum(spec Spec) error {
	want := CorefileChecksum(spec.Corefile)
	switch {
	case spec.CorefileChecksum == "":
		return fmt.Errorf("spec.corefileChecksum is missing: it must be the SHA-256 of spec.corefile (%s); kops update cluster writes both", want)
	case spec.CorefileChecksum != want:
		return fmt.Errorf("spec.corefileChecksum %s is not the SHA-256 of spec.corefile (%s): whoever changed one must change the other (kops update cluster writes both)", spec.CorefileChecksum, want)
	}
	return nil
}
