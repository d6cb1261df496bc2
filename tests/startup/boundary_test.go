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

package startup

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const applier = "k8s.io/kops/channels/pkg/apply"

// importsApplierAllowed says whether pkg may import the applier: channels itself may; kops,
// validate and the operators share only the protocol, channels/pkg/api.
func importsApplierAllowed(pkg string) bool {
	return pkg == "k8s.io/kops/cmd/channels" || strings.HasPrefix(pkg, "k8s.io/kops/channels/")
}

// TestOnlyChannelsImportsTheApplier: no production package outside channels imports the applier,
// which would link it whole into that package's binaries.
func TestOnlyChannelsImportsTheApplier(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if imp == applier {
				importers = append(importers, fields[0])
			}
		}
	}
	require.Contains(t, importers, "k8s.io/kops/cmd/channels", "the listing is the real one")
	for _, p := range importers {
		assert.True(t, importsApplierAllowed(p), "%s imports %s; share what it needs through k8s.io/kops/channels/pkg/api", p, applier)
	}
}

func TestImportsApplierAllowed(t *testing.T) {
	for pkg, want := range map[string]bool{
		"k8s.io/kops/cmd/channels":          true,
		"k8s.io/kops/channels/pkg/channels": true,
		"k8s.io/kops/pkg/validation":        false,
		"k8s.io/kops/cmd/kops":              false,
		"k8s.io/kops/channelsextra":         false,
		"k8s.io/kops/pkg/operator/manager":  false,
	} {
		assert.Equal(t, want, importsApplierAllowed(pkg), pkg)
	}
}
