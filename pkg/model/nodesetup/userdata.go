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
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

// mimeBoundary is fixed so that the same inputs give the same bytes (and launch templates do not
// change on every update). UserData refuses contents that contain it.
const mimeBoundary = "KOPS-NODESETUP-BOUNDARY-7d1f2c"

// NodeFiles are the files of an instance group's node setup.
type NodeFiles struct {
	Script        []byte
	Unit          []byte
	KubeletDropIn []byte
}

// HasNodeSetup says whether an instance group's machines get the node rules: every role that runs
// kubelet, i.e. all but bastions.
func HasNodeSetup(ig *kops.InstanceGroup) bool {
	return ig.Spec.Role != kops.RoleBastion
}

// Files renders the node files of a group of a completed cluster.
func Files(cluster *kops.Cluster, ig *kops.InstanceGroup) (*NodeFiles, error) {
	r, err := RulesFor(cluster, ig)
	if err != nil {
		return nil, err
	}
	script, err := RenderScript(r)
	if err != nil {
		return nil, err
	}
	return &NodeFiles{Script: script, Unit: RenderUnit(r), KubeletDropIn: RenderKubeletDropIn()}, nil
}

// UserData returns the user data of an instance group's machines, as the launch template carries it.
// The cluster must be completed (kops.CompleteCluster). Contract for the AWS model: deterministic
// bytes for the same inputs. It is a cloud-init MIME multipart document laid out as kops lays out
// a group with spec.additionalUserData: our parts first (the cloud-config that writes the node
// rules' script and unit and enables the unit; then, where HasBootstrap, the script that runs
// nodeup), then the group's parts in their order. Bastions run no kubelet, so they have no part
// of ours; without parts of their own they get no user data at all (nil), as with kops.
func UserData(cluster *kops.Cluster, ig *kops.InstanceGroup, nodeup model.NodeupSource) ([]byte, error) {
	var parts []kops.UserData
	if HasNodeSetup(ig) {
		files, err := Files(cluster, ig)
		if err != nil {
			return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
		config, err := cloudConfig(files)
		if err != nil {
			return nil, err
		}
		parts = append(parts, kops.UserData{Name: nodeSetupPartName, Type: nodeSetupPartType, Content: config})
	}
	if HasBootstrap(ig, nodeup) {
		script, err := bootstrapScript(cluster, ig, nodeup)
		if err != nil {
			return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
		parts = append(parts, kops.UserData{Name: bootstrapPartName, Type: bootstrapPartType, Content: script})
	}
	parts = append(parts, ig.Spec.AdditionalUserData...)
	if len(parts) == 0 {
		return nil, nil
	}
	return multipartUserData(ig, parts)
}

// The part of ours in the user data.
const (
	nodeSetupPartName = "kops-nodesetup.cfg"
	nodeSetupPartType = `text/cloud-config; charset="us-ascii"`
)

// multipartUserData writes the parts as a MIME multipart document, each with its file name; ours
// come first, so the group's parts start at index len(parts) - len(spec.additionalUserData).
func multipartUserData(ig *kops.InstanceGroup, parts []kops.UserData) ([]byte, error) {
	first := len(parts) - len(ig.Spec.AdditionalUserData)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if err := w.SetBoundary(mimeBoundary); err != nil {
		return nil, err
	}
	for i, p := range parts {
		if strings.Contains(p.Content, mimeBoundary) {
			where := "part " + p.Name + " of ours"
			if i >= first {
				where = fmt.Sprintf("spec.additionalUserData[%d].content", i-first)
			}
			return nil, fmt.Errorf("instance group %q: %s contains the MIME boundary %q of the user data", ig.Name, where, mimeBoundary)
		}
		part, err := w.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {p.Type},
			"Content-Transfer-Encoding": {"7bit"},
			"Content-Disposition":       {fmt.Sprintf("attachment; filename=%q", p.Name)},
		})
		if err != nil {
			return nil, err
		}
		if _, err := part.Write([]byte(p.Content)); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "Content-Type: multipart/mixed; boundary=%q\r\nMIME-Version: 1.0\r\n\r\n", mimeBoundary)
	out.Write(body.Bytes())
	return out.Bytes(), nil
}
