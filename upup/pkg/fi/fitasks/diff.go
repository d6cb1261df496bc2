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

package fitasks

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
)

const diffContextLines = 3

// unifiedDiff returns "" for binary content; the size and hash fields still show the change.
func unifiedDiff(location string, current, desired []byte) (string, error) {
	if !isText(current) || !isText(desired) {
		return "", nil
	}
	return difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:        splitLines(string(current)),
		B:        splitLines(string(desired)),
		FromFile: location + " (current)",
		ToFile:   location + " (desired)",
		Context:  diffContextLines,
	})
}

// splitLines marks a final line without "\n" as diff -u does, so a trailing newline change shows.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if last := lines[len(lines)-1]; last == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] = last + "\n\\ No newline at end of file\n"
	}
	return lines
}

func isText(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}
