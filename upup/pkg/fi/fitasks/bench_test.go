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

package fitasks

import (
	"context"
	"fmt"
	"io"
	"testing"

	"k8s.io/kops/upup/pkg/fi"
)

// BenchmarkRunDryRun plans ~1000 files against memfs, a third each
// unchanged, modified (so a diff is computed) and missing, with a shallow
// dependency tree, and renders the report.
func BenchmarkRunDryRun(b *testing.B) {
	const n = 1000
	existing := map[string]string{}
	var tasks []fi.Task
	for i := range n {
		loc := fmt.Sprintf("addons/file-%04d.yaml", i)
		content := fmt.Sprintf("kind: ConfigMap\nmetadata:\n  name: file-%d\ndata:\n  a: %q\n  b: x\n  c: y\n", i, loc)
		switch i % 3 {
		case 0:
			existing[loc] = content
		case 1:
			existing[loc] = content + "  d: old\n"
		}
		var deps []fi.TaskKey
		if i > 0 {
			deps = []fi.TaskKey{{Kind: ManagedFileKind, Name: fmt.Sprintf("addons/file-%04d.yaml", (i-1)/8)}}
		}
		tasks = append(tasks, &ManagedFile{Name: loc, Location: loc, Contents: []byte(content), Deps: deps})
	}
	c, _ := memContext(b, existing)
	graph, err := fi.BuildGraph(tasks)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var target fi.DryRunTarget
		if _, err := fi.Run(context.Background(), graph, c, &target, fi.RunOptions{}); err != nil {
			b.Fatal(err)
		}
		if err := target.WriteReport(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
