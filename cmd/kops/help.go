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
	"embed"
	"strings"
)

// The long help of each command, one text file per command under help/, named by its path below
// kops with words joined by "_" (update_cluster.txt): 'kops CMD --help' shows it, and the command
// reference under docs/cli is generated from it.
//
//go:embed help/*.txt
var helpFiles embed.FS

// longHelp is the text of help/<name>.txt; a test holds every command to having one.
func longHelp(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(data), "\n")
}
