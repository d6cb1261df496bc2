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

package nodesetup

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

type cloudConfigDoc struct {
	WriteFiles []writeFile `yaml:"write_files"`
	RunCmd     [][]string  `yaml:"runcmd"`
}

type writeFile struct {
	Path        string `yaml:"path"`
	Owner       string `yaml:"owner"`
	Permissions string `yaml:"permissions"`
	Content     string `yaml:"content"`
}

// cloudConfig writes the files in cloud-init's first stage, before any bootstrap, then starts the
// unit and its guard.
func cloudConfig(files *NodeFiles) (string, error) {
	doc := cloudConfigDoc{
		WriteFiles: []writeFile{
			{Path: ScriptPath, Owner: "root:root", Permissions: "0755", Content: string(files.Script)},
			{Path: UnitPath, Owner: "root:root", Permissions: "0644", Content: string(files.Unit)},
			{Path: KubeletDropInPath, Owner: "root:root", Permissions: "0644", Content: string(files.KubeletDropIn)},
			{Path: GuardUnitPath, Owner: "root:root", Permissions: "0644", Content: string(files.GuardUnit)},
		},
		RunCmd: [][]string{
			{"systemctl", "daemon-reload"},
			{"systemctl", "enable", "--now", UnitName},
			{"systemctl", "enable", "--now", GuardUnitName},
		},
	}
	if s, ok := writeCloudConfig(doc); ok {
		return s, nil
	}
	return encodeCloudConfig(doc)
}

func encodeCloudConfig(doc cloudConfigDoc) (string, error) {
	var b bytes.Buffer
	b.WriteString("#cloud-config\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("encoding cloud-config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("encoding cloud-config: %w", err)
	}
	return b.String(), nil
}

// writeCloudConfig writes encodeCloudConfig's bytes without the YAML encoder when every content is a
// plain literal block, else returns false.
func writeCloudConfig(doc cloudConfigDoc) (string, bool) {
	var b strings.Builder
	size := 512
	for _, f := range doc.WriteFiles {
		size += len(f.Content) + len(f.Content)/8
	}
	b.Grow(size)
	b.WriteString("#cloud-config\nwrite_files:\n")
	for _, f := range doc.WriteFiles {
		if !literalBlockSafe(f.Content) {
			return "", false
		}
		fmt.Fprintf(&b, "  - path: %s\n    owner: %s\n    permissions: %q\n    content: |\n", f.Path, f.Owner, f.Permissions)
		for _, line := range strings.SplitAfter(f.Content, "\n") {
			if line != "\n" && line != "" {
				b.WriteString("      ")
			}
			b.WriteString(line)
		}
	}
	b.WriteString("runcmd:\n")
	for _, cmd := range doc.RunCmd {
		for i, arg := range cmd {
			b.WriteString(map[bool]string{true: "  - - ", false: "    - "}[i == 0] + arg + "\n")
		}
	}
	return b.String(), true
}

func literalBlockSafe(s string) bool {
	if !strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\n\n") || strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
		return false
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && (r < ' ' || r > '~') {
			return false
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return false
		}
	}
	return true
}
