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

package updatecluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/addons/coredns/corefile"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/tests/integration/golden"
)

// Every Corefile a golden case renders (the built-in addon's ConfigMap, the CoreDNS object's
// spec.corefile) passes the reach check that validation applies: kops never renders a Corefile
// its own validation would refuse.
func TestGoldenCorefilesPassTheReachCheck(t *testing.T) {
	for _, c := range golden.Cases(t, 5) {
		t.Run(c, func(t *testing.T) {
			corefiles := renderedCorefiles(t, filepath.Join(c, "expected", "addons"))
			require.NotEmpty(t, corefiles, "every case renders CoreDNS")
			for where, text := range corefiles {
				problems, err := corefile.Check(text)
				assert.NoError(t, err, where)
				assert.Empty(t, problems, where)
			}
		})
	}
}

// renderedCorefiles finds the Corefiles among the manifests below dir, keyed by file and object.
func renderedCorefiles(t *testing.T, dir string) map[string]string {
	found := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		docs, err := kubemanifest.Split(data)
		require.NoError(t, err, path)
		for _, doc := range docs {
			var obj struct {
				Kind     string
				Metadata struct{ Namespace, Name string }
				Data     map[string]string
				Spec     struct{ Corefile string }
			}
			require.NoError(t, yaml.Unmarshal(doc, &obj), path)
			where := path + ": " + obj.Kind + " " + obj.Metadata.Namespace + "/" + obj.Metadata.Name
			switch {
			case obj.Kind == "ConfigMap" && obj.Metadata.Name == "coredns":
				require.NotEmpty(t, obj.Data["Corefile"], where)
				found[where] = obj.Data["Corefile"]
			case obj.Kind == "CoreDNS":
				require.NotEmpty(t, obj.Spec.Corefile, where)
				found[where] = obj.Spec.Corefile
			}
		}
		return nil
	}))
	return found
}
