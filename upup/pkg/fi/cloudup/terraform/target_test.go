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
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform/tfverify"
	"k8s.io/kops/upup/pkg/fi/fitasks"
	"k8s.io/kops/util/pkg/vfs"
)

// runTasks renders tasks through a terraform target and returns its files.
func runTasks(t testing.TB, tasks []fi.Task, stateStore fi.Target) map[string][]byte {
	t.Helper()
	graph, err := fi.BuildGraph(tasks)
	require.NoError(t, err)
	target := NewTarget(Options{ClusterName: "a.example.com", Region: "us-east-2", StateStore: stateStore})
	_, err = fi.Run(context.Background(), graph, memContext(t), target, fi.RunOptions{})
	require.NoError(t, err)
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, DataDir), "the output passes the hclparse check too")
	require.Equal(t, string(hclwrite.Format(files[MainFile])), string(files[MainFile]), "terraform fmt changes nothing (the tokens the target lists are those HCL lexes from the bytes)")
	return files
}

// memContext is a task context whose state store is empty and in memory.
func memContext(t testing.TB) *fi.Context {
	base, err := vfs.ParsePath("memfs://store/a.example.com", &vfs.MemFS{})
	require.NoError(t, err)
	return &fi.Context{ClusterName: "a.example.com", ConfigBase: base}
}

func TestFilesLayout(t *testing.T) {
	files := runTasks(t, testTasks(1, 1), nil)
	require.ElementsMatch(t, []string{MainFile, "data/aws_launch_template_nodes-0-a-example-com_user_data"}, slices.Sorted(maps.Keys(files)))
	assert.Equal(t, "#!/bin/sh\necho nodes-0.a.example.com\n", string(files["data/aws_launch_template_nodes-0-a-example-com_user_data"]))
	assert.Equal(t, `locals {
  cluster_name = "a.example.com"
  region       = "us-east-2"
}

output "cluster_name" {
  value = "a.example.com"
}

output "region" {
  value = "us-east-2"
}

provider "aws" {
  region = "us-east-2"
}

resource "aws_iam_instance_profile" "nodes-a-example-com" {
  name = "nodes.a.example.com"
}

resource "aws_launch_template" "nodes-0-a-example-com" {
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-a-example-com.id
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  name      = "nodes-0.a.example.com"
  user_data = filebase64("${path.module}/data/aws_launch_template_nodes-0-a-example-com_user_data")
}

terraform {
  required_version = ">= 0.15.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0.0"
    }
  }
}
`, string(files[MainFile]))
}

func TestFilesAreDeterministic(t *testing.T) {
	first := runTasks(t, testTasks(30, 1), nil)
	for range 5 {
		assert.Equal(t, first, runTasks(t, testTasks(30, 1), nil))
	}
}

func TestRenderDispatch(t *testing.T) {
	file := &fitasks.ManagedFile{Name: "addons/a.yaml", Location: "addons/a.yaml", Contents: []byte("a: 1\n")}
	tasks := append(testTasks(1, 1), file)

	t.Run("addon files go to the state-store target, cloud tasks to terraform", func(t *testing.T) {
		var store fi.DryRunTarget
		files := runTasks(t, tasks, &store)
		require.Len(t, store.Changes(), 1, "only the addon file reaches the state-store target")
		assert.Equal(t, file.Key(), store.Changes()[0].Key)
		assert.NotContains(t, string(files[MainFile]), "addons/a.yaml")
	})
	t.Run("without a state-store target a non-terraform task is an error", func(t *testing.T) {
		graph, err := fi.BuildGraph(tasks)
		require.NoError(t, err)
		_, err = fi.Run(context.Background(), graph, memContext(t), NewTarget(Options{}), fi.RunOptions{})
		var noRenderer *fi.NoRendererError
		require.ErrorAs(t, err, &noRenderer)
		assert.Equal(t, file.Key(), noRenderer.Task)
	})
}

func TestAddFile(t *testing.T) {
	target := NewTarget(Options{})
	l, err := target.AddFile("aws_iam_role_policy", "nodes-a-example-com", "policy", []byte("{}"), false)
	require.NoError(t, err)
	assert.Equal(t, `file("${path.module}/data/aws_iam_role_policy_nodes-a-example-com_policy")`, l.String())

	_, err = target.AddFile("aws_iam_role_policy", "nodes-a-example-com", "policy", []byte("{}"), false)
	assert.NoError(t, err, "the same file twice is fine")
	_, err = target.AddFile("aws_iam_role_policy", "nodes-a-example-com", "policy", []byte("{ }"), false)
	assert.ErrorContains(t, err, "added twice with different contents")

	for _, key := range []string{"../x", "a/b", `a"b`, "${x}", "a b", ""} {
		_, err := target.AddFile("t", "n", key, nil, false)
		assert.Error(t, err, "key %q", key)
	}
}

// A template file's only interpolation is the variable it is given; what else looks like one is
// escaped, so terraform reads back the document as written.
func TestAddTemplateFile(t *testing.T) {
	target := NewTarget(Options{})
	arn := LiteralProperty("aws_iam_openid_connect_provider", "a-example-com", "arn")
	doc := []byte(`{"Federated": "${provider}", "Sub": "${aws:username}", "If": "%{if}", "Dollar": "$5"}`)
	l, err := target.AddTemplateFile("aws_iam_role", "r", "policy", doc, "provider", arn)
	require.NoError(t, err)
	assert.Equal(t, `templatefile("${path.module}/data/aws_iam_role_r_policy", {
  provider = aws_iam_openid_connect_provider.a-example-com.arn
})`, l.String())
	require.NoError(t, target.RenderResource("aws_iam_openid_connect_provider", "a-example-com", &testLookup{Name: "a"}))
	require.NoError(t, target.RenderResource("aws_iam_role", "r", &testRole{Name: "r", Policy: l}))
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, DataDir))
	assert.Equal(t, string(hclwrite.Format(files[MainFile])), string(files[MainFile]), "terraform fmt changes nothing")
	assert.Equal(t, `{"Federated": "${provider}", "Sub": "$${aws:username}", "If": "%%{if}", "Dollar": "$5"}`,
		string(files["data/aws_iam_role_r_policy"]))

	for _, bad := range []string{"", "for", "a-b c", "${x}"} {
		_, err := target.AddTemplateFile("aws_iam_role", "x", "policy", nil, bad, arn)
		assert.Error(t, err, "variable %q", bad)
	}
	file, err := target.AddFile("t", "n", "k", nil, false)
	require.NoError(t, err)
	_, err = target.AddTemplateFile("aws_iam_role", "x", "policy", nil, "v", file)
	assert.ErrorContains(t, err, "needs a value that reads no file")

	dangling := NewTarget(Options{})
	l, err = dangling.AddTemplateFile("aws_iam_role", "r", "policy", doc, "provider", arn)
	require.NoError(t, err)
	require.NoError(t, dangling.RenderResource("aws_iam_role", "r", &testRole{Name: "r", Policy: l}))
	_, err = dangling.Files()
	assert.ErrorContains(t, err, "reference to aws_iam_openid_connect_provider.a-example-com, which is not defined")
}

func TestDanglingReferenceIsRefused(t *testing.T) {
	target := NewTarget(Options{})
	require.NoError(t, (&testLaunchTemplate{Name: "nodes.a.example.com", Profile: "missing.a.example.com"}).RenderTerraform(target))
	_, err := target.Files()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reference to aws_iam_instance_profile.missing-a-example-com, which is not defined")

	unread := NewTarget(Options{})
	_, err = unread.AddFile("aws_iam_role_policy", "nodes", "policy", []byte("{}"), false)
	require.NoError(t, err)
	_, err = unread.Files()
	assert.ErrorContains(t, err, "data/aws_iam_role_policy_nodes_policy is not read by any resource")
}

func TestOutputTasks(t *testing.T) {
	mem := &vfs.MemFS{}
	out, err := vfs.ParsePath("memfs://out/tf", mem)
	require.NoError(t, err)
	c := &fi.Context{ConfigBase: out}
	run := func(t *testing.T, files map[string][]byte, target fi.Target) {
		graph, err := fi.BuildGraph(OutputTasks(files))
		require.NoError(t, err)
		_, err = fi.Run(context.Background(), graph, c, target, fi.RunOptions{})
		require.NoError(t, err)
	}
	v1 := runTasks(t, testTasks(2, 1), nil)

	var preview fi.DryRunTarget
	run(t, v1, &preview)
	writes, _ := mem.Stats()
	assert.Zero(t, writes, "a preview writes nothing")
	require.Len(t, preview.Changes(), 4)
	assert.Equal(t, fi.TaskKey{Kind: fitasks.LedgerKind, Name: LedgerFile}, preview.Changes()[0].Key, "the ledger of what kops wrote, first")

	run(t, v1, &fi.DirectTarget{})
	for path, data := range v1 {
		got, err := out.Join(path).ReadFile()
		require.NoError(t, err)
		assert.Equal(t, string(data), string(got))
	}

	t.Run("a re-run changes nothing and writes nothing", func(t *testing.T) {
		before, _ := mem.Stats()
		var again fi.DryRunTarget
		run(t, v1, &again)
		assert.Empty(t, again.Changes())
		run(t, v1, &fi.DirectTarget{})
		after, _ := mem.Stats()
		assert.Equal(t, before, after)
	})

	t.Run("a change shows a diff headed by the resource, and stale data files go", func(t *testing.T) {
		v2 := runTasks(t, testTasks(1, 2), nil)
		var diff fi.DryRunTarget
		run(t, v2, &diff)
		changes := diff.Changes()
		require.Len(t, changes, 3)
		assert.Equal(t, fi.TaskKey{Kind: fitasks.LedgerKind, Name: LedgerFile}, changes[0].Key)
		changes = changes[1:]
		assert.Equal(t, fi.TaskKey{Kind: OutputFileKind, Name: "data/ (no longer rendered)"}, changes[0].Key)
		assert.Equal(t, fi.ActionDelete, changes[0].Change.Action)
		assert.Equal(t, "data/aws_launch_template_nodes-1-a-example-com_user_data", changes[0].Change.Fields[0].Old)
		assert.Equal(t, fi.TaskKey{Kind: OutputFileKind, Name: MainFile}, changes[1].Key)
		assert.Contains(t, changes[1].Change.Diff, "--- resource aws_launch_template.nodes-0-a-example-com (current)\n")
		assert.Contains(t, changes[1].Change.Diff, "-    http_put_response_hop_limit = 1\n+    http_put_response_hop_limit = 2\n")
		assert.Contains(t, changes[1].Change.Diff, "--- resource aws_launch_template.nodes-1-a-example-com (current)\n")

		run(t, v2, &fi.DirectTarget{})
		left, err := out.Join(DataDir).ReadDir()
		require.NoError(t, err)
		require.Len(t, left, 1)
		assert.Equal(t, "aws_launch_template_nodes-0-a-example-com_user_data", left[0].Base())
	})
}

// An output names what a task made, as kops names its outputs; it is written as a local and an
// output of the same name, sorted with cluster_name and region.
func TestOutputs(t *testing.T) {
	target := NewTarget(Options{ClusterName: "a.example.com", Region: "us-east-2"})
	require.NoError(t, (&testInstanceProfile{Name: "nodes.a.example.com"}).RenderTerraform(target))
	arn := LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "arn")
	require.NoError(t, target.AddOutput("nodes_profile_arn", arn))
	require.NoError(t, target.AddOutput("nodes_profile_arn", LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "arn")),
		"the same output twice is fine")
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, DataDir))
	main := string(files[MainFile])
	assert.Equal(t, string(hclwrite.Format(files[MainFile])), main, "terraform fmt changes nothing (the tokens the target lists are those HCL lexes from the bytes)")
	assert.Contains(t, main, `locals {
  cluster_name      = "a.example.com"
  nodes_profile_arn = aws_iam_instance_profile.nodes-a-example-com.arn
  region            = "us-east-2"
}

output "cluster_name" {
  value = "a.example.com"
}

output "nodes_profile_arn" {
  value = aws_iam_instance_profile.nodes-a-example-com.arn
}

output "region" {
`)

	assert.ErrorContains(t, target.AddOutput("nodes_profile_arn", LiteralProperty("aws_iam_instance_profile", "other", "arn")),
		"added twice with different values")
	for _, name := range []string{"region", "cluster_name", "a b", "", "x.y"} {
		assert.Error(t, target.AddOutput(name, arn), "output %q", name)
	}

	dangling := NewTarget(Options{})
	require.NoError(t, dangling.AddOutput("nodes_role_arn", LiteralProperty("aws_iam_role", "nodes-a-example-com", "arn")))
	_, err = dangling.Files()
	assert.ErrorContains(t, err, "output.nodes_role_arn: reference to aws_iam_role.nodes-a-example-com, which is not defined")
}

type testLookup struct {
	Name string            `cty:"name"`
	Tags map[string]string `cty:"tags"`
}

type testRole struct {
	Name   string   `cty:"name"`
	Policy *Literal `cty:"assume_role_policy"`
}

type testUsesGroups struct {
	Name           string     `cty:"name"`
	SecurityGroups []*Literal `cty:"vpc_security_group_ids"`
}

// A data source is looked up, not made: written as a data block before the resources, referred to
// as data.<type>.<name>; tasks sharing one may each declare it, but not with another body.
func TestDataSources(t *testing.T) {
	target := NewTarget(Options{ClusterName: "a.example.com", Region: "us-east-2"})
	lookup := &testLookup{Name: "nodes.a.example.com", Tags: map[string]string{"KubernetesCluster": "a.example.com"}}
	require.NoError(t, target.RenderDataSource("aws_security_group", "nodes-a-example-com", lookup))
	require.NoError(t, target.RenderDataSource("aws_security_group", "nodes-a-example-com",
		&testLookup{Name: "nodes.a.example.com", Tags: map[string]string{"KubernetesCluster": "a.example.com"}}), "the same lookup twice")
	assert.ErrorContains(t, target.RenderDataSource("aws_security_group", "nodes-a-example-com", &testLookup{Name: "other"}),
		"declared twice with different bodies")
	require.NoError(t, target.RenderResource("aws_launch_template", "nodes-a-example-com", &testUsesGroups{
		Name: "nodes.a.example.com", SecurityGroups: []*Literal{LiteralDataProperty("aws_security_group", "nodes-a-example-com", "id")},
	}))
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, DataDir))
	main := string(files[MainFile])
	assert.Equal(t, string(hclwrite.Format(files[MainFile])), main, "terraform fmt changes nothing (the tokens the target lists are those HCL lexes from the bytes)")
	assert.Contains(t, main, `data "aws_security_group" "nodes-a-example-com" {
  name = "nodes.a.example.com"
  tags = {
    KubernetesCluster = "a.example.com"
  }
}

resource "aws_launch_template" "nodes-a-example-com" {
  name                   = "nodes.a.example.com"
  vpc_security_group_ids = [data.aws_security_group.nodes-a-example-com.id]
}
`)

	dangling := NewTarget(Options{})
	require.NoError(t, dangling.RenderResource("aws_launch_template", "x", &testUsesGroups{
		Name: "x", SecurityGroups: []*Literal{LiteralDataProperty("aws_security_group", "missing", "id")},
	}))
	_, err = dangling.Files()
	assert.ErrorContains(t, err, "reference to data.aws_security_group.missing, which is not defined")
	assert.ErrorContains(t, tfverify.Verify(map[string][]byte{MainFile: []byte("resource \"a\" \"b\" {\n  x = data.aws_security_group.missing.id\n}\n")}, DataDir),
		"reference to data.aws_security_group.missing, which is not defined")
	assert.NoError(t, tfverify.Verify(map[string][]byte{MainFile: []byte("data \"aws_security_group\" \"s\" {\n  name = \"s\"\n}\n\nresource \"a\" \"b\" {\n  x = data.aws_security_group.s.id\n}\n")}, DataDir))
}

// A list output collects what several tasks add, each item once, sorted.
func TestOutputLists(t *testing.T) {
	target := NewTarget(Options{ClusterName: "a.example.com"})
	for _, name := range []string{"nodes-b", "nodes-a", "nodes-b"} {
		require.NoError(t, target.RenderDataSource("aws_security_group", name, &testLookup{Name: name}))
		require.NoError(t, target.AddOutputListItem("node_security_group_ids", LiteralDataProperty("aws_security_group", name, "id")))
	}
	require.NoError(t, target.AddOutputListItem("node_security_group_ids", LiteralString("sg-123")))
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, DataDir))
	main := string(files[MainFile])
	assert.Equal(t, string(hclwrite.Format(files[MainFile])), main, "terraform fmt changes nothing (the tokens the target lists are those HCL lexes from the bytes)")
	assert.Contains(t, main, `output "node_security_group_ids" {
  value = ["sg-123", data.aws_security_group.nodes-a.id, data.aws_security_group.nodes-b.id]
}`)
	assert.ErrorContains(t, target.AddOutput("node_security_group_ids", LiteralString("x")), "a single value and a list")
	require.NoError(t, target.AddOutput("single", LiteralString("x")))
	assert.ErrorContains(t, target.AddOutputListItem("single", LiteralString("y")), "a single value and a list")
	assert.Error(t, target.AddOutputListItem("region", LiteralString("y")))

	dangling := NewTarget(Options{})
	require.NoError(t, dangling.AddOutputListItem("node_security_group_ids", LiteralDataProperty("aws_security_group", "missing", "id")))
	_, err = dangling.Files()
	assert.ErrorContains(t, err, "output.node_security_group_ids: reference to data.aws_security_group.missing, which is not defined")
}
