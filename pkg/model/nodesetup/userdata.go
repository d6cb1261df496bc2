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

// mimeBoundary is fixed so the same inputs give the same bytes; UserData refuses contents holding it.
const mimeBoundary = "KOPS-NODESETUP-BOUNDARY-7d1f2c"

type NodeFiles struct {
	Script        []byte
	Unit          []byte
	KubeletDropIn []byte
	GuardUnit     []byte
}

// HasNodeSetup is true for every role that runs kubelet, i.e. all but bastions.
func HasNodeSetup(ig *kops.InstanceGroup) bool {
	return ig.Spec.Role != kops.RoleBastion
}

func Files(cluster *kops.Cluster, ig *kops.InstanceGroup) (*NodeFiles, error) {
	r, err := RulesFor(cluster, ig)
	if err != nil {
		return nil, err
	}
	script, err := RenderScript(r)
	if err != nil {
		return nil, err
	}
	return &NodeFiles{Script: script, Unit: RenderUnit(r), KubeletDropIn: RenderKubeletDropIn(), GuardUnit: RenderGuardUnit(r)}, nil
}

// UserData returns a completed cluster's group's user data, deterministically: a MIME multipart
// document laid out as kops's with additionalUserData (our cloud-config and bootstrap first, then the
// group's parts). Bastions without parts of their own get nil, as with kops.
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

const (
	nodeSetupPartName = "kops-nodesetup.cfg"
	nodeSetupPartType = `text/cloud-config; charset="us-ascii"`
)

// multipartUserData puts ours first, so the group's parts start at len(parts) - len(additionalUserData).
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
