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
	"maps"
	"path"
	"slices"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

const (
	ScriptFile        = "kops-pod-metadata-access.sh"
	UnitFile          = UnitName
	KubeletDropInFile = "kubelet-10-kops-pod-metadata-access.conf"
	GuardUnitFile     = GuardUnitName
)

// Builder writes each group's node files to the state store, so what a machine runs can be read and
// diffed without decoding launch templates. The same bytes go into the user data.
type Builder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*Builder)(nil)

// LedgerLocation records the node files under igconfig/ so a gone group's files are deleted only
// while their bytes are kops's.
const LedgerLocation = "igconfig/" + fitasks.LedgerName

// Build records the node files in the ledger before writing them, and deletes those of gone groups after.
func (b *Builder) Build(c *fi.ModelBuilderContext) error {
	byMode := map[string]*NodeFiles{}
	written := map[string][]byte{}
	for _, ig := range b.Context.InstanceGroups {
		if !HasNodeSetup(ig) {
			continue
		}
		mode := b.Context.Cluster.Spec.PodMetadataFor(ig).Mode
		files := byMode[mode]
		if files == nil {
			var err error
			if files, err = Files(b.Context.Cluster, ig); err != nil {
				return err
			}
			byMode[mode] = files
		}
		dir := IGConfigDir(ig)
		for _, f := range []struct {
			name     string
			contents []byte
		}{{ScriptFile, files.Script}, {UnitFile, files.Unit}, {KubeletDropInFile, files.KubeletDropIn}, {GuardUnitFile, files.GuardUnit}} {
			written[path.Join(dir, f.name)] = f.contents
		}
	}
	ledger := &fitasks.LedgerUpdate{Name: LedgerLocation, Location: LedgerLocation, Files: written}
	if err := c.AddTask(ledger); err != nil {
		return err
	}
	var deps []fi.TaskKey
	for _, loc := range slices.Sorted(maps.Keys(written)) {
		f := &fitasks.ManagedFile{Name: loc, Location: loc, Contents: written[loc], Deps: []fi.TaskKey{ledger.Key()}}
		if err := c.AddTask(f); err != nil {
			return err
		}
		deps = append(deps, f.Key())
	}
	return c.AddTask(&fitasks.StaleFiles{
		Name: "igconfig/ (groups that are gone)", Ledger: LedgerLocation, Under: "igconfig/",
		Keep: slices.Sorted(maps.Keys(written)), RemoveEmptyFolders: true,
		Deps: append(deps, ledger.Key()),
	})
}

// IGConfigDir is kops's igconfig/<role in lower case>/<group>, "controlplane" under either role spelling.
func IGConfigDir(ig *kops.InstanceGroup) string {
	role := string(ig.Spec.Role)
	if ig.IsControlPlane() {
		role = string(kops.RoleControlPlane)
	}
	return path.Join("igconfig", strings.ToLower(role), ig.Name)
}
