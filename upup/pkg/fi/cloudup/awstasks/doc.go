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

// Package awstasks holds the AWS tasks of a cluster's machines: launch templates and IAM roles,
// instance profiles and policies, and for IAM roles of service accounts (IRSA) the OIDC provider
// and managed-policy attachments. This build has no AWS client, so Plan reports ActionCreate with
// every field, and tasks are applied only through `--target terraform` (no fi.DirectRenderer).
package awstasks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
)

const (
	LaunchTemplateKind     = "LaunchTemplate"
	IAMRoleKind            = "IAMRole"
	IAMInstanceProfileKind = "IAMInstanceProfile"
	IAMRolePolicyKind      = "IAMRolePolicy"

	IAMOIDCProviderKind         = "IAMOIDCProvider"
	IAMRolePolicyAttachmentKind = "IAMRolePolicyAttachment"
)

func ensure(fields ...fi.FieldChange) *fi.Change {
	return &fi.Change{Action: fi.ActionCreate, Fields: fields}
}

// summarize shows a blob by size and hash, so reports stay short and still change when it does.
func summarize(b []byte) string {
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d bytes, sha256 %s", len(b), hex.EncodeToString(sum[:])[:12])
}

func formatTags(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+tags[k])
	}
	return strings.Join(parts, ", ")
}

func cloneTags(tags map[string]string) map[string]string {
	if tags == nil {
		return nil
	}
	out := make(map[string]string, len(tags))
	for k, v := range tags {
		out[k] = v
	}
	return out
}
