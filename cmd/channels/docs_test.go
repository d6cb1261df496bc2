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

package main

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"

	"k8s.io/kops/tests/docs"
)

// TestDocumentedCommandsParse: every `channels` command line of README.md and docs/ parses
// against this command tree (subcommands, flags and their values, argument counts).
func TestDocumentedCommandsParse(t *testing.T) {
	for _, err := range docs.Check("../..", "channels", func(env map[string]string) *cobra.Command {
		return newRoot(context.Background(), env, io.Discard)
	}) {
		assert.NoError(t, err)
	}
}

// TestCommandReference: docs/cli holds one generated page per channels command; a page that
// differs from the tree fails (UPDATE_EXPECTED=1, or hack/update-expected.sh, rewrites them).
func TestCommandReference(t *testing.T) {
	for _, err := range docs.CheckReference("../..", newRoot(context.Background(), map[string]string{}, io.Discard), os.Getenv("UPDATE_EXPECTED") == "1") {
		assert.NoError(t, err)
	}
}
