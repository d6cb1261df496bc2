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
				files, err := Files(c)
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
