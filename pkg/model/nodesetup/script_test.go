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
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requirePackages is set by the Makefile, which installs shellcheck: there a missing tool fails.
var requirePackages = os.Getenv("KOPS_REQUIRE_TEST_PACKAGES") == "1"

// TestScriptsPassShellcheck checks every script the renderer can produce: spec.networking plays
// no part (TestRulesIgnoreNetworking), so each mode, family, cloud, with and without hostInterface.
func TestScriptsPassShellcheck(t *testing.T) {
	shellcheck, err := exec.LookPath("shellcheck")
	if err != nil {
		if requirePackages {
			t.Fatal("shellcheck not found: run hack/install-test-packages.sh")
		}
		t.Skip("shellcheck not found: run hack/install-test-packages.sh; skipped")
	}
	dir := t.TempDir()
	var paths []string
	for _, cloud := range []string{"aws", "gce", "openstack", "scaleway"} {
		for _, hostInterface := range []string{"", "cali+"} {
			for _, ipv6 := range []bool{false, true} {
				for _, mode := range allModes {
					c := testCluster(mode, ipv6, nil)
					c.Spec.CloudProvider = cloud
					c.Spec.PodMetadataAccess.HostInterface = hostInterface
					script, err := Script(c)
					require.NoError(t, err)
					p := filepath.Join(dir, fmt.Sprintf("%s-%s-%s-%v.sh", cloud, mode, hostInterface, ipv6))
					require.NoError(t, os.WriteFile(p, script, 0o644))
					paths = append(paths, p)
				}
			}
		}
	}
	require.Len(t, paths, 48)
	out, err := exec.Command(shellcheck, append([]string{"--shell=sh", "--severity=style"}, paths...)...).CombinedOutput()
	assert.NoError(t, err, "shellcheck:\n%s", out)
}

// TestScriptWithoutIptables: a node without iptables gets a non-zero exit and a message saying
// what is missing, before anything is done.
func TestScriptWithoutIptables(t *testing.T) {
	for _, mode := range []string{"Allow", "Block", "Forward"} {
		t.Run(mode, func(t *testing.T) {
			script, err := Script(testCluster(mode, false, nil))
			require.NoError(t, err)
			p := filepath.Join(t.TempDir(), ScriptFile)
			require.NoError(t, os.WriteFile(p, script, 0o755))
			cmd := exec.Command("/bin/sh", p)
			cmd.Env = []string{"PATH=" + t.TempDir()} // an empty directory: no command at all
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			assert.Equal(t, 1, exit.ExitCode())
			assert.Equal(t, "kops-pod-metadata-access: iptables not found in PATH: install it (package iptables or iproute2); mode "+mode+" is not applied and kubelet must not start\n", string(out))
		})
	}
}

// TestScriptRefusesALoopbackPattern: validation and RulesFor refuse a hostInterface that matches
// lo; the script checks again on the node, before anything else, in case a script was rendered
// otherwise or edited. A pattern that does not match lo passes on (to the missing iptables).
func TestScriptRefusesALoopbackPattern(t *testing.T) {
	c := testCluster("Block", false, nil)
	c.Spec.PodMetadataAccess.HostInterface = "cali+"
	script, err := Script(c)
	require.NoError(t, err)
	const assignment = "\nhost_interface='cali+'\n"
	require.Contains(t, string(script), assignment)
	for pattern, want := range map[string]string{
		"lo":    "kops-pod-metadata-access: hostInterface lo matches lo; no rule changed: mode Block is not applied and kubelet must not start\n",
		"lo+":   "kops-pod-metadata-access: hostInterface lo+ matches lo; no rule changed: mode Block is not applied and kubelet must not start\n",
		"l+":    "kops-pod-metadata-access: hostInterface l+ matches lo; no rule changed: mode Block is not applied and kubelet must not start\n",
		"+":     "kops-pod-metadata-access: hostInterface + matches lo; no rule changed: mode Block is not applied and kubelet must not start\n",
		"lo0":   "kops-pod-metadata-access: iptables not found in PATH: install it (package iptables or iproute2); mode Block is not applied and kubelet must not start\n",
		"cali+": "kops-pod-metadata-access: iptables not found in PATH: install it (package iptables or iproute2); mode Block is not applied and kubelet must not start\n",
	} {
		t.Run(pattern, func(t *testing.T) {
			edited := strings.Replace(string(script), assignment, "\nhost_interface='"+pattern+"'\n", 1)
			p := filepath.Join(t.TempDir(), ScriptFile)
			require.NoError(t, os.WriteFile(p, []byte(edited), 0o755))
			cmd := exec.Command("/bin/sh", p)
			cmd.Env = []string{"PATH=" + t.TempDir()} // no command at all: nothing can change
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			assert.Equal(t, 1, exit.ExitCode())
			assert.Equal(t, want, string(out))
		})
	}
}

// TestScriptRefusesUnknownArguments: the units run it without arguments or with --guard; a typo
// must not silently apply or guard.
func TestScriptRefusesUnknownArguments(t *testing.T) {
	script, err := Script(testCluster("Block", false, nil))
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), ScriptFile)
	require.NoError(t, os.WriteFile(p, script, 0o755))
	cmd := exec.Command("/bin/sh", p, "--watch")
	cmd.Env = []string{"PATH=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Equal(t, "kops-pod-metadata-access: unknown argument --watch: run without arguments to apply mode Block, or with --guard to keep it\n", string(out))
}
