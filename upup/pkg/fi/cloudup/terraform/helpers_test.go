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

package terraform

import (
	"context"
	"strconv"

	"k8s.io/kops/upup/pkg/fi"
)

// The task types below stand in for the AWS tasks in tests: a launch template that reads its
// user data from a data file and refers to an instance profile, and the profile itself.

type testLaunchTemplate struct {
	Name     string
	Profile  string
	UserData string
	HopLimit int64
}

type testMetadataOptions struct {
	HTTPEndpoint string `cty:"http_endpoint"`
	HTTPTokens   string `cty:"http_tokens"`
	HopLimit     int64  `cty:"http_put_response_hop_limit"`
}

type testLaunchTemplateBody struct {
	Name            string               `cty:"name"`
	InstanceProfile *testProfileRef      `cty:"iam_instance_profile"`
	MetadataOptions *testMetadataOptions `cty:"metadata_options"`
	UserData        *Literal             `cty:"user_data"`
}

type testProfileRef struct {
	Name *Literal `cty:"name"`
}

func (l *testLaunchTemplate) Key() fi.TaskKey {
	return fi.TaskKey{Kind: "LaunchTemplate", Name: l.Name}
}
func (l *testLaunchTemplate) Dependencies() []fi.TaskKey {
	return []fi.TaskKey{{Kind: "IAMInstanceProfile", Name: l.Profile}}
}
func (l *testLaunchTemplate) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return &fi.Change{Action: fi.ActionCreate, Fields: []fi.FieldChange{{Name: "Name", New: l.Name}}}, nil
}

func (l *testLaunchTemplate) RenderTerraform(t *Target) error {
	name := ResourceName(l.Name)
	userData, err := t.AddFile("aws_launch_template", name, "user_data", []byte(l.UserData), true)
	if err != nil {
		return err
	}
	return t.RenderResource("aws_launch_template", name, &testLaunchTemplateBody{
		Name:            l.Name,
		InstanceProfile: &testProfileRef{Name: LiteralProperty("aws_iam_instance_profile", ResourceName(l.Profile), "id")},
		MetadataOptions: &testMetadataOptions{HTTPEndpoint: "enabled", HTTPTokens: "required", HopLimit: l.HopLimit},
		UserData:        userData,
	})
}

type testInstanceProfile struct{ Name string }

func (p *testInstanceProfile) Key() fi.TaskKey {
	return fi.TaskKey{Kind: "IAMInstanceProfile", Name: p.Name}
}
func (p *testInstanceProfile) Dependencies() []fi.TaskKey { return nil }
func (p *testInstanceProfile) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return &fi.Change{Action: fi.ActionCreate, Fields: []fi.FieldChange{{Name: "Name", New: p.Name}}}, nil
}

func (p *testInstanceProfile) RenderTerraform(t *Target) error {
	return t.RenderResource("aws_iam_instance_profile", ResourceName(p.Name), struct {
		Name string `cty:"name"`
	}{p.Name})
}

// testTasks is a small cluster's cloud side: a profile and n launch templates using it.
func testTasks(n int, hopLimit int64) []fi.Task {
	tasks := []fi.Task{&testInstanceProfile{Name: "nodes.a.example.com"}}
	for i := range n {
		name := "nodes-" + strconv.Itoa(i) + ".a.example.com"
		tasks = append(tasks, &testLaunchTemplate{Name: name, Profile: "nodes.a.example.com", UserData: "#!/bin/sh\necho " + name + "\n", HopLimit: hopLimit})
	}
	return tasks
}
