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
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/tests/integration/golden"
	"k8s.io/kops/upup/pkg/fi/cloudup"
	"k8s.io/kops/util/pkg/vfs"
)

func TestUpdateClusterGolden(t *testing.T) {
	for _, c := range golden.Cases(t, 5) {
		t.Run(c, func(t *testing.T) { runCase(t, c) })
	}
}

// goldenStore is a memfs state store holding one case's cluster.
type goldenStore struct {
	mem       *vfs.MemFS
	clientset *client.Clientset
	flags     featureflag.Set
	name      string
}

func newGoldenStore(t *testing.T, dir string) *goldenStore {
	flagsText, err := os.ReadFile(filepath.Join(dir, "featureflags"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		require.NoError(t, err)
	}
	flags, messages := featureflag.Parse(strings.TrimSpace(string(flagsText)))
	for _, m := range messages {
		require.NotEqual(t, featureflag.Warning, m.Severity, m.Text)
	}

	input, err := os.ReadFile(filepath.Join(dir, "in-v1alpha2.yaml"))
	require.NoError(t, err)
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	input = bytes.ReplaceAll(input, []byte("file://./"), []byte("file://"+filepath.ToSlash(abs)+"/"))
	// As kops create -f: other objects are stored with the cluster whatever the flags.
	objs, warnings, err := kopscodecs.Decode("in-v1alpha2.yaml", input, true)
	require.NoError(t, err)
	require.Empty(t, warnings, "golden inputs use modeled fields only")

	n, err := client.NewClusterFromObjects(objs)
	require.NoError(t, err)
	for _, ig := range n.InstanceGroups {
		if nodesetup.HasNodeSetup(ig) && !ig.IsControlPlane() && len(ig.Spec.AdditionalUserData) == 0 {
			ig.Spec.AdditionalUserData = []kops.UserData{goldenBootstrap}
		}
	}
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://golden", mem)
	require.NoError(t, err)
	s := &goldenStore{mem: mem, clientset: client.New(base), flags: flags, name: n.Cluster.Name}
	require.NoError(t, s.clientset.CreateCluster(n))
	return s
}

// A kops cluster's groups carry their bootstrap (kops's nodeup script) in their launch templates.
// Here every group that runs kubelet, but for the control plane, carries this stand-in for it in
// spec.additionalUserData, and update is told where nodeup is (goldenNodeup) so that the control
// plane gets the bootstrap of ours: otherwise no group that runs kubelet would get a launch
// template (pkg/model/awsmodel canBoot), and the cases would pin none.
var (
	goldenBootstrap = kops.UserData{Name: "nodeup.sh", Type: "text/x-shellscript", Content: "#!/bin/bash\n# the group's own bootstrap\n"}
	goldenNodeup    = model.NodeupSource{
		"amd64": {URLs: []string{"https://artifacts.example.com/kops/nodeup-linux-amd64"}, SHA256: strings.Repeat("1a", 32)},
		"arm64": {URLs: []string{"https://artifacts.example.com/kops/nodeup-linux-arm64"}, SHA256: strings.Repeat("2b", 32)},
	}
)

func (s *goldenStore) update(t *testing.T, target string) (string, *cloudup.ApplyResult) {
	t.Helper()
	var out bytes.Buffer
	result, err := cloudup.ApplyCluster(context.Background(), cloudup.ApplyClusterOptions{
		Clientset: s.clientset, ClusterName: s.name, Flags: s.flags, Target: target, Out: &out, Nodeup: goldenNodeup,
	})
	require.NoError(t, err)
	return out.String(), result
}

// addonFiles reads every file below the cluster's addons/ directory, keyed by relative path.
func (s *goldenStore) addonFiles(t *testing.T) map[string]string {
	return s.filesBelow(t, "addons")
}

// filesBelow reads every file below the cluster's directories dirs (missing ones are empty), keyed
// by relative path.
func (s *goldenStore) filesBelow(t *testing.T, dirs ...string) map[string]string {
	files := map[string]string{}
	var walk func(p vfs.Path, rel string)
	walk = func(p vfs.Path, rel string) {
		children, err := p.ReadDir()
		if err != nil {
			data, readErr := p.ReadFile()
			require.NoError(t, readErr)
			files[rel] = string(data)
			return
		}
		for _, c := range children {
			walk(c, rel+"/"+c.Base())
		}
	}
	for _, dir := range dirs {
		p := s.clientset.Base().Join(s.name, dir)
		if _, err := p.ReadDir(); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		walk(p, dir)
	}
	return files
}

func runCase(t *testing.T, dir string) {
	s := newGoldenStore(t, dir)

	created, _ := s.mem.Stats()
	report, _ := s.update(t, cloudup.TargetDryRun)
	afterDryRun, _ := s.mem.Stats()
	assert.Equal(t, created, afterDryRun, "the dry run writes nothing")
	got := map[string]string{"dryrun.txt": report}

	_, result := s.update(t, cloudup.TargetDirect)
	require.True(t, result.Changed)
	for path, data := range s.filesBelow(t, "addons", "igconfig") {
		got[path] = data
	}
	if wantsTerraform(t, dir) {
		for path, data := range s.updateTerraform(t) {
			got[path] = data
		}
	}

	golden.Check(t, dir, got)

	t.Run("manifests decode strictly", func(t *testing.T) {
		for path, data := range got {
			if path == "dryrun.txt" || strings.HasSuffix(path, "bootstrap-channel.yaml") ||
				strings.HasPrefix(path, "igconfig/") || strings.HasPrefix(path, terraformPrefix) {
				continue
			}
			_, err := kubemanifest.DecodeStrict([]byte(data), addons.OperatorKinds())
			assert.NoError(t, err, path)
		}
	})

	// What channels checks before applying anything (one document, hashes, every object's
	// metadata against its kind's rules) holds for every channel kops writes.
	t.Run("channels reads the channel", func(t *testing.T) {
		location := s.clientset.Base().Join(s.name, "addons", "bootstrap-channel.yaml").String()
		_, err := apply.ReadChannel(location, vfs.NewContext(s.mem))
		assert.NoError(t, err)
	})

	t.Run("second update changes nothing", func(t *testing.T) {
		before, _ := s.mem.Stats()
		report, result := s.update(t, cloudup.TargetDirect)
		assert.False(t, result.Changed)
		assert.Equal(t, "No changes need to be applied\n", report)
		after, _ := s.mem.Stats()
		assert.Equal(t, before, after, "no writes")
	})
}
