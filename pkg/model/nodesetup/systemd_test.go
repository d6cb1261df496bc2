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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnitsVerify has systemd parse the unit and kubelet's drop-in next to a stand-in kubelet
// unit: a misspelt key would silently drop the ordering that keeps pods from starting early.
func TestUnitsVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not found (package systemd); skipped")
	}
	r, err := RulesFor(testCluster("Block", false, nil), nil)
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
	}
	write(UnitName, RenderUnit(r))
	write(GuardUnitName, RenderGuardUnit(r))
	write(filepath.Join("kubelet.service.d", filepath.Base(KubeletDropInPath)), RenderKubeletDropIn())
	write("kubelet.service", []byte("[Service]\nType=oneshot\nExecStart=/bin/true\n"))
	require.Equal(t, "/etc/systemd/system/kubelet.service.d", filepath.Dir(KubeletDropInPath))

	cmd := exec.Command(analyze, "verify", "kubelet.service", UnitName, GuardUnitName)
	cmd.Env = append(os.Environ(), "SYSTEMD_UNIT_PATH="+dir+":") // the trailing ':' keeps the defaults
	out, _ := cmd.CombinedOutput()
	var problems []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// The script is not installed on the machine running the test.
		if line != "" && !strings.Contains(line, ScriptPath+" is not executable") {
			problems = append(problems, line)
		}
	}
	assert.Empty(t, problems, "systemd-analyze verify")
}
