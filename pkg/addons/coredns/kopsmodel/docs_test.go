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

package kopsmodel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/operator/confine"
)

func readDocs(t *testing.T, page string) string {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", page))
	require.NoError(t, err)
	return string(doc)
}

// The user docs show the operator's rights as generated from Rights, so they cannot drift.
func TestDocsShowTheRightsTable(t *testing.T) {
	assert.Contains(t, readDocs(t, "operator-rights.md"), Descriptor().RightsMarkdown(), "docs/operator-rights.md must contain Descriptor().RightsMarkdown() verbatim")
}

// The user docs show the admission policy generated for a cluster with kops's defaults.
func TestDocsShowThePolicy(t *testing.T) {
	assert.Contains(t, readDocs(t, "operator-policy.md"), confine.PolicyMarkdown(renderedScopeWithImage(t, kops.ClusterSpec{}, "").scope),
		"docs/operator-policy.md must contain confine.PolicyMarkdown() of the default cluster verbatim")
}
