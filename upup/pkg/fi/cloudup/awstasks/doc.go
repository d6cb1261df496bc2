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

// Package awstasks holds the tasks of the AWS objects a cluster's machines need: launch templates,
// IAM roles, instance profiles and role policies.
//
// This build has no AWS client. A cloud task's Plan therefore cannot know what exists and reports
// ActionCreate with every field ("ensure this exists as shown"), so that a dry run shows the whole
// desired object. The tasks implement terraform.Renderer and no fi.DirectRenderer: they are
// applied by writing them with `--target terraform` and running terraform.
package awstasks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
)

// The TaskKey kinds of the tasks in this package.
const (
	LaunchTemplateKind     = "LaunchTemplate"
	IAMRoleKind            = "IAMRole"
	IAMInstanceProfileKind = "IAMInstanceProfile"
	IAMRolePolicyKind      = "IAMRolePolicy"
)

// ensure is the change a cloud task reports: the object as it should be, every field shown.
func ensure(fields ...fi.FieldChange) *fi.Change {
	return &fi.Change{Action: fi.ActionCreate, Fields: fields}
}

// summarize shows a blob by size and hash, so reports stay short and still change when it does.
func summarize(b []byte) string {
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d bytes, sha256 %s", len(b), hex.EncodeToString(sum[:])[:12])
}

// formatTags prints tags sorted by key: k=v, k=v.
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
