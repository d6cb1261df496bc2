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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func docOf(files *NodeFiles) cloudConfigDoc {
	return cloudConfigDoc{
		WriteFiles: []writeFile{
			{Path: ScriptPath, Owner: "root:root", Permissions: "0755", Content: string(files.Script)},
			{Path: UnitPath, Owner: "root:root", Permissions: "0644", Content: string(files.Unit)},
			{Path: KubeletDropInPath, Owner: "root:root", Permissions: "0644", Content: string(files.KubeletDropIn)},
		},
		RunCmd: [][]string{{"systemctl", "daemon-reload"}, {"systemctl", "enable", "--now", UnitName}},
	}
}

// TestWriteCloudConfigMatchesTheEncoder: the fast writer gives the encoder's bytes for every file
// set the renderer produces.
func TestWriteCloudConfigMatchesTheEncoder(t *testing.T) {
	for _, hostInterface := range []string{"", "cali+"} {
		for _, ipv6 := range []bool{false, true} {
			for _, mode := range allModes {
				c := testCluster(mode, ipv6, nil)
				c.Spec.PodMetadataAccess.HostInterface = hostInterface
				files, err := Files(c, nil)
				require.NoError(t, err)
				doc := docOf(files)
				fast, ok := writeCloudConfig(doc)
				require.True(t, ok, "%q %s %v: generated files are literal-block safe", hostInterface, mode, ipv6)
				slow, err := encodeCloudConfig(doc)
				require.NoError(t, err)
				assert.Equal(t, slow, fast, "%q %s %v", hostInterface, mode, ipv6)
			}
		}
	}
}

// TestCloudConfigFallsBack: contents the fast writer cannot write as they are go through the
// encoder, and decode to exactly what was given.
func TestCloudConfigFallsBack(t *testing.T) {
	for _, content := range []string{
		"no final newline", "two final newlines\n\n", " leading space\n", "trailing space \n",
		"\nleading newline\n", "control \x01 character\n", "non-ASCII é\n",
	} {
		doc := cloudConfigDoc{WriteFiles: []writeFile{{Path: "/x", Owner: "root:root", Permissions: "0644", Content: content}}}
		_, ok := writeCloudConfig(doc)
		assert.False(t, ok, "%q", content)
		files := &NodeFiles{Script: []byte(content), Unit: []byte(content), KubeletDropIn: []byte(content)}
		out, err := cloudConfig(files)
		require.NoError(t, err)
		var decoded cloudConfigDoc
		require.NoError(t, yaml.Unmarshal([]byte(strings.TrimPrefix(out, "#cloud-config\n")), &decoded))
		assert.Equal(t, content, decoded.WriteFiles[0].Content)
	}
}
