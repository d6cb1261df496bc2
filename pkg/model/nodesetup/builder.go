package nodesetup

import (
	"path"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// The names of the node files in an instance group's node configuration directory.
const (
	ScriptFile        = "kops-pod-metadata-access.sh"
	UnitFile          = UnitName
	KubeletDropInFile = "kubelet-10-kops-pod-metadata-access.conf"
)

// Builder writes each instance group's node files to the state store, next to the rest of its node
// configuration, so that what a machine runs can be read (and diffed by the dry run) without
// decoding launch templates. The same bytes go into the user data.
type Builder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*Builder)(nil)

// Build adds a ManagedFile for the script, the unit and kubelet's drop-in of every group that runs
// kubelet.
func (b *Builder) Build(c *fi.ModelBuilderContext) error {
	var files *NodeFiles
	for _, ig := range b.Context.InstanceGroups {
		if !HasNodeSetup(ig) {
			continue
		}
		if files == nil {
			var err error
			if files, err = Files(b.Context.Cluster); err != nil {
				return err
			}
		}
		dir := IGConfigDir(ig)
		for _, f := range []struct {
			name     string
			contents []byte
		}{{ScriptFile, files.Script}, {UnitFile, files.Unit}, {KubeletDropInFile, files.KubeletDropIn}} {
			loc := path.Join(dir, f.name)
			if err := c.AddTask(&fitasks.ManagedFile{Name: loc, Location: loc, Contents: f.contents}); err != nil {
				return err
			}
		}
	}
	return nil
}

// IGConfigDir is where kops keeps an instance group's node configuration, relative to the
// configBase: igconfig/<role in lower case>/<group>. The control plane is "controlplane" under
// either spelling of its role, as kops writes it.
func IGConfigDir(ig *kops.InstanceGroup) string {
	role := string(ig.Spec.Role)
	if ig.IsControlPlane() {
		role = string(kops.RoleControlPlane)
	}
	return path.Join("igconfig", strings.ToLower(role), ig.Name)
}
