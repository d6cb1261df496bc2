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
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

func bootstrapCluster() *kops.Cluster {
	c := testCluster("Block", false, nil)
	c.Name = "a.example.com"
	c.Spec.ConfigBase = "s3://state/a.example.com"
	return c
}

func controlPlaneGroup() *kops.InstanceGroup {
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleControlPlane}}
	ig.Name = "control-plane-us-east-2a"
	return ig
}

var someNodeup = model.NodeupSource{"amd64": {URLs: []string{"https://example.com/nodeup"}, SHA256: strings.Repeat("0", 64)}}

// Our bootstrap follows our cloud-config and precedes the group's parts, for the control plane
// only: nodes bootstrap through kops-controller, whose CA this build does not read.
func TestBootstrapPart(t *testing.T) {
	own := kops.UserData{Name: "extra.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\n"}
	for _, tc := range []struct {
		role   kops.InstanceGroupRole
		nodeup model.NodeupSource
		want   []string
	}{
		{kops.RoleControlPlane, someNodeup, []string{nodeSetupPartName, bootstrapPartName, "extra.sh"}},
		{kops.RoleMaster, someNodeup, []string{nodeSetupPartName, bootstrapPartName, "extra.sh"}},
		{kops.RoleControlPlane, nil, []string{nodeSetupPartName, "extra.sh"}},
		{kops.RoleNode, someNodeup, []string{nodeSetupPartName, "extra.sh"}},
		{kops.RoleAPIServer, someNodeup, []string{nodeSetupPartName, "extra.sh"}},
	} {
		ig := controlPlaneGroup()
		ig.Spec.Role = tc.role
		ig.Spec.AdditionalUserData = []kops.UserData{own}
		data, err := UserData(bootstrapCluster(), ig, tc.nodeup)
		require.NoError(t, err)
		heads, bodies := orderedParts(t, data)
		var names []string
		for _, h := range heads {
			names = append(names, strings.Fields(h)[0])
		}
		assert.Equal(t, tc.want, names, "%s, nodeup given: %v", tc.role, tc.nodeup != nil)
		if len(names) == 3 && names[1] == bootstrapPartName {
			assert.Equal(t, bootstrapPartName+" "+bootstrapPartType, heads[1])
			assert.True(t, strings.HasPrefix(bodies[1], "#!/bin/bash\n"), "cloud-init runs a shell script part by its #!")
		}
	}
}

func TestBootstrapScriptIsShellcheckClean(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed (hack/install-test-packages.sh)")
	}
	src := model.NodeupSource{
		"amd64": {URLs: []string{"https://a.example.com/nodeup", "https://b.example.com/nodeup"}, SHA256: strings.Repeat("a", 64)},
		"arm64": {URLs: []string{"https://a.example.com/nodeup-arm64"}, SHA256: strings.Repeat("b", 64)},
	}
	script, err := bootstrapScript(bootstrapCluster(), controlPlaneGroup(), src)
	require.NoError(t, err)
	cmd := exec.Command("shellcheck", "-s", "bash", "-")
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "%s\n%s", out, script)
}

// sandbox runs the rendered script with /opt/kops moved into a temporary folder and uname, sleep
// and nodeup replaced: nodeup records its arguments and the boot configuration it was given.
type sandbox struct {
	dir, bin string
}

func newSandbox(t *testing.T, arch string) *sandbox {
	t.Helper()
	s := &sandbox{dir: t.TempDir()}
	s.bin = filepath.Join(s.dir, "path")
	require.NoError(t, os.MkdirAll(s.bin, 0o755))
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(s.bin, name), []byte(content), 0o755))
	}
	write("uname", "#!/bin/sh\necho "+arch+"\n")
	// A machine that can get no good nodeup would wait and retry for ever; here it stops instead.
	write("sleep", "#!/bin/sh\necho slept >&2\nexit 7\n")
	return s
}

// nodeup writes a fake nodeup into the sandbox and returns its file URL and SHA-256.
func (s *sandbox) nodeup(t *testing.T, name string) (string, string) {
	t.Helper()
	content := "#!/bin/sh\necho \"$@\" > " + filepath.Join(s.dir, "nodeup-args") + "\ncp " + filepath.Join(s.dir, "opt/kops/conf/kube_env.yaml") + " " + filepath.Join(s.dir, "nodeup-conf") + "\n"
	path := filepath.Join(s.dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	sum := sha256.Sum256([]byte(content))
	return "file://" + path, hex.EncodeToString(sum[:])
}

func (s *sandbox) run(t *testing.T, src model.NodeupSource) (string, error) {
	t.Helper()
	script, err := bootstrapScript(bootstrapCluster(), controlPlaneGroup(), src)
	require.NoError(t, err)
	script = strings.ReplaceAll(script, "/opt/kops", filepath.Join(s.dir, "opt/kops"))
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = []string{"PATH=" + s.bin + ":/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The script takes the first URL that gives the expected bytes, writes kops's boot configuration
// of a control-plane machine, and runs nodeup with kops's arguments.
func TestBootstrapScriptRunsNodeup(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	s := newSandbox(t, "x86_64")
	good, sum := s.nodeup(t, "good")
	other, _ := s.nodeup(t, "other")
	require.NoError(t, os.WriteFile(strings.TrimPrefix(other, "file://"), []byte("#!/bin/sh\necho tampered\n"), 0o644))
	out, err := s.run(t, model.NodeupSource{"amd64": {URLs: []string{"file:///nonexistent/nodeup", other, good}, SHA256: sum}})
	require.NoError(t, err, out)
	assert.Contains(t, out, "/nonexistent/nodeup failed or gave other bytes")
	assert.Contains(t, out, "/other failed or gave other bytes")

	args, err := os.ReadFile(filepath.Join(s.dir, "nodeup-args"))
	require.NoError(t, err)
	assert.Equal(t, "--install-systemd-unit --conf="+filepath.Join(s.dir, "opt/kops/conf/kube_env.yaml")+" --v=8\n", string(args))
	conf, err := os.ReadFile(filepath.Join(s.dir, "nodeup-conf"))
	require.NoError(t, err)
	var got map[string]string
	require.NoError(t, yaml.Unmarshal(conf, &got))
	assert.Equal(t, map[string]string{
		"CloudProvider": "aws", "ClusterName": "a.example.com", "ConfigBase": "s3://state/a.example.com",
		"InstanceGroupName": "control-plane-us-east-2a", "InstanceGroupRole": "ControlPlane",
	}, got)
}

// Bytes that do not match the hash never run; an architecture without a nodeup stops the script.
func TestBootstrapScriptRefuses(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	s := newSandbox(t, "x86_64")
	good, _ := s.nodeup(t, "good")
	out, err := s.run(t, model.NodeupSource{"amd64": {URLs: []string{good}, SHA256: strings.Repeat("0", 64)}})
	require.Error(t, err, out)
	assert.Contains(t, out, "slept", "it waits to try again rather than run other bytes")
	assert.NoFileExists(t, filepath.Join(s.dir, "nodeup-args"))
	assert.NoFileExists(t, filepath.Join(s.dir, "opt/kops/bin/nodeup"), "nothing with the wrong hash is kept")

	s = newSandbox(t, "riscv64")
	good, sum := s.nodeup(t, "good")
	out, err = s.run(t, model.NodeupSource{"amd64": {URLs: []string{good}, SHA256: sum}})
	require.Error(t, err)
	assert.Contains(t, out, "no nodeup was given for architecture riscv64")
	assert.NoFileExists(t, filepath.Join(s.dir, "nodeup-args"))
}

func TestValidateNodeupSource(t *testing.T) {
	ok := strings.Repeat("ab", 32)
	assert.NoError(t, ValidateNodeupSource(model.NodeupSource{"amd64": {URLs: []string{"https://a/n", "http://b/n"}, SHA256: ok}}, "x"))
	assert.NoError(t, ValidateNodeupSource(nil, "x"))
	for name, src := range map[string]model.NodeupSource{
		"unknown arch":  {"riscv64": {URLs: []string{"https://a/n"}, SHA256: ok}},
		"no URL":        {"amd64": {SHA256: ok}},
		"file URL":      {"amd64": {URLs: []string{"file:///tmp/n"}, SHA256: ok}},
		"shell in URL":  {"amd64": {URLs: []string{"https://a/n$(reboot)"}, SHA256: ok}},
		"quote in URL":  {"amd64": {URLs: []string{`https://a/n"`}, SHA256: ok}},
		"space in URL":  {"amd64": {URLs: []string{"https://a/n x"}, SHA256: ok}},
		"short hash":    {"amd64": {URLs: []string{"https://a/n"}, SHA256: "abc"}},
		"upper hash":    {"amd64": {URLs: []string{"https://a/n"}, SHA256: strings.ToUpper(ok)}},
		"hash injected": {"amd64": {URLs: []string{"https://a/n"}, SHA256: ok[:63] + ";"}},
	} {
		assert.Error(t, ValidateNodeupSource(src, "x"), name)
	}
}
