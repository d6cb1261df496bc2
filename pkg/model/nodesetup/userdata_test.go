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
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"k8s.io/kops/pkg/apis/kops"
)

// parts decodes user data as cloud-init does: a MIME multipart message.
func parts(t *testing.T, userData []byte) map[string]string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(userData))
	require.NoError(t, err)
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/mixed", mediaType)
	r := multipart.NewReader(msg.Body, params["boundary"])
	out := map[string]string{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		body, err := io.ReadAll(p)
		require.NoError(t, err)
		ct, _, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		require.NoError(t, err)
		out[ct] = string(body)
	}
}

func TestUserData(t *testing.T) {
	c := testCluster("Forward", false, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleNode}}
	ig.Name = "nodes"
	data, err := UserData(c, ig, nil)
	require.NoError(t, err)
	again, err := UserData(c, ig, nil)
	require.NoError(t, err)
	assert.Equal(t, data, again, "deterministic bytes")

	got := parts(t, data)
	require.Len(t, got, 1)
	config := got["text/cloud-config"]
	require.True(t, strings.HasPrefix(config, "#cloud-config\n"), config)
	var doc struct {
		WriteFiles []map[string]string `yaml:"write_files"`
		RunCmd     [][]string          `yaml:"runcmd"`
	}
	dec := yaml.NewDecoder(strings.NewReader(config))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&doc))
	files, err := Files(c, nil)
	require.NoError(t, err)
	assert.Equal(t, []map[string]string{
		{"path": ScriptPath, "owner": "root:root", "permissions": "0755", "content": string(files.Script)},
		{"path": UnitPath, "owner": "root:root", "permissions": "0644", "content": string(files.Unit)},
		{"path": KubeletDropInPath, "owner": "root:root", "permissions": "0644", "content": string(files.KubeletDropIn)},
		{"path": GuardUnitPath, "owner": "root:root", "permissions": "0644", "content": string(files.GuardUnit)},
	}, doc.WriteFiles)
	assert.Equal(t, [][]string{
		{"systemctl", "daemon-reload"},
		{"systemctl", "enable", "--now", UnitName},
		{"systemctl", "enable", "--now", GuardUnitName},
	}, doc.RunCmd)
}

// orderedParts decodes user data as cloud-init does and returns each part as
// "<file name> <content type>" and its body, in order.
func orderedParts(t *testing.T, userData []byte) (heads, bodies []string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(userData))
	require.NoError(t, err)
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return heads, bodies
		}
		require.NoError(t, err)
		body, err := io.ReadAll(p)
		require.NoError(t, err)
		heads = append(heads, p.FileName()+" "+p.Header.Get("Content-Type"))
		bodies = append(bodies, string(body))
	}
}

// A group's own parts (its bootstrap) follow ours in their order, as kops appends
// additionalUserData after its nodeup script.
func TestUserDataCarriesTheGroupsParts(t *testing.T) {
	c := testCluster("Block", false, nil)
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleNode, AdditionalUserData: []kops.UserData{
		{Name: "bootstrap.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\nexec /opt/bootstrap\n"},
		{Name: "extra.cfg", Type: "text/cloud-config", Content: "#cloud-config\nruncmd: [[true]]\n"},
	}}}
	ig.Name = "nodes"
	data, err := UserData(c, ig, nil)
	require.NoError(t, err)
	heads, bodies := orderedParts(t, data)
	assert.Equal(t, []string{
		`kops-nodesetup.cfg text/cloud-config; charset="us-ascii"`,
		"bootstrap.sh text/x-shellscript",
		"extra.cfg text/cloud-config",
	}, heads)
	assert.Equal(t, "#!/bin/sh\nexec /opt/bootstrap\n", bodies[1], "byte for byte")
	assert.Equal(t, "#cloud-config\nruncmd: [[true]]\n", bodies[2])
}

// Bastions run no kubelet: no part of ours, and no user data at all without parts of their own.
func TestUserDataBastionHasNoNodeSetup(t *testing.T) {
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleBastion}}
	data, err := UserData(testCluster("Block", false, nil), ig, nil)
	require.NoError(t, err)
	assert.Nil(t, data)

	ig.Spec.AdditionalUserData = []kops.UserData{{Name: "motd.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\n"}}
	data, err = UserData(testCluster("Block", false, nil), ig, nil)
	require.NoError(t, err)
	heads, _ := orderedParts(t, data)
	assert.Equal(t, []string{"motd.sh text/x-shellscript"}, heads)
}

// A part that holds the boundary would end the document early, and what follows would be read
// as parts the user never wrote.
func TestUserDataRefusesTheBoundaryInAPart(t *testing.T) {
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleNode, AdditionalUserData: []kops.UserData{
		{Name: "a.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\n"},
		{Name: "b.sh", Type: "text/x-shellscript", Content: "--" + mimeBoundary + "\nContent-Type: text/x-shellscript\n\nrm -rf /\n"},
	}}}
	ig.Name = "nodes"
	_, err := UserData(testCluster("Block", false, nil), ig, nil)
	assert.ErrorContains(t, err, `instance group "nodes": spec.additionalUserData[1].content contains the MIME boundary`)
}

func TestUserDataReportsTheGroup(t *testing.T) {
	c := testCluster("Block", false, nil)
	c.Spec.PodMetadataAccess.HostInterface = "cali+;x"
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: kops.RoleNode}}
	ig.Name = "nodes"
	_, err := UserData(c, ig, nil)
	assert.ErrorContains(t, err, `instance group "nodes": spec.podMetadataAccess.hostInterface: Invalid value`)
}

func TestUnit(t *testing.T) {
	r, err := RulesFor(testCluster("Block", false, nil), nil)
	require.NoError(t, err)
	unit := string(RenderUnit(r))
	for _, line := range []string{
		"Wants=network-pre.target", "After=network-pre.target", "Before=kubelet.service",
		"Type=oneshot", "RemainAfterExit=yes", "ExecStart=" + ScriptPath,
	} {
		assert.Contains(t, strings.Split(unit, "\n"), line)
	}
	dropIn := strings.Split(string(RenderKubeletDropIn()), "\n")
	assert.Contains(t, dropIn, "Requires="+UnitName, "kubelet does not start without the rules")
	assert.Contains(t, dropIn, "After="+UnitName)
	assert.NotContains(t, unit, "Restart", "restarts nothing and is not restarted")
}
