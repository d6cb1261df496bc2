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
	"fmt"
	"testing"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/util/pkg/vfs"
)

// benchmarkTarget renders n test launch templates (and their profile), builds kubernetes.tf and
// data/, and previews them against an --out that holds the previous
// rendering: the work of `kops update cluster --target terraform` past the model. Compare 200 with
// 400 for linearity.
func benchmarkTarget(b *testing.B, n int) {
	graph, err := fi.BuildGraph(testTasks(n, 1))
	if err != nil {
		b.Fatal(err)
	}
	mem := &vfs.MemFS{}
	out, err := vfs.ParsePath("memfs://out/tf", mem)
	if err != nil {
		b.Fatal(err)
	}
	outContext := &fi.Context{ConfigBase: out}
	// --out holds the same rendering, so the preview reads and compares every file.
	outGraph, err := fi.BuildGraph(OutputTasks(runTasks(b, testTasks(n, 1), nil)))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fi.Run(context.Background(), outGraph, outContext, &fi.DirectTarget{}, fi.RunOptions{}); err != nil {
		b.Fatal(err)
	}
	c := memContext(b)
	b.ReportAllocs()
	for b.Loop() {
		target := NewTarget(Options{ClusterName: "a.example.com", Region: "us-east-2"})
		if _, err := fi.Run(context.Background(), graph, c, target, fi.RunOptions{}); err != nil {
			b.Fatal(err)
		}
		files, err := target.Files()
		if err != nil {
			b.Fatal(err)
		}
		g, err := fi.BuildGraph(OutputTasks(files))
		if err != nil {
			b.Fatal(err)
		}
		var preview fi.DryRunTarget
		if _, err := fi.Run(context.Background(), g, outContext, &preview, fi.RunOptions{}); err != nil {
			b.Fatal(err)
		}
		if preview.HasChanges() {
			b.Fatal("unchanged tasks must preview no change")
		}
	}
}

func BenchmarkTarget(b *testing.B) {
	for _, n := range []int{1, 200, 400} {
		b.Run(fmt.Sprintf("launchTemplates=%d", n), func(b *testing.B) { benchmarkTarget(b, n) })
	}
}
