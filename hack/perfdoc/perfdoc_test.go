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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepositoryFiguresMatchTheBenchmarks is the check `make test` runs: every benchmark of the
// repository is in the list, and docs/performance.md was generated from that list by
// hack/update-performance.sh, showing only benchmarks that exist.
func TestRepositoryFiguresMatchTheBenchmarks(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	entries, err := readSpec(root)
	require.NoError(t, err)
	funcs, err := Benchmarks(root)
	require.NoError(t, err)
	require.NotEmpty(t, funcs)
	doc, err := os.ReadFile(filepath.Join(root, docFile))
	require.NoError(t, err)
	assert.NoError(t, Check(funcs, entries, string(doc)))
}

const sampleOutput = `goos: linux
goarch: amd64
pkg: k8s.io/kops/upup/pkg/fi/cloudup
cpu: AMD EPYC 7B13
BenchmarkUpdateClusterDryRunMinimal-2   	     200	   1500000 ns/op	  301000 B/op	    2988 allocs/op
BenchmarkUpdateClusterDryRunMinimal-2   	     200	   1700000 ns/op	  301000 B/op	    2988 allocs/op
BenchmarkUpdateClusterDryRunMinimal-2   	     200	   1600000 ns/op	  301000 B/op	    2988 allocs/op
BenchmarkChannelsBinary
BenchmarkChannelsBinary/operator/cold
BenchmarkChannelsBinary/operator/cold-2 	      20	 308000000 ns/op	        46.00 requests/op
BenchmarkChannelsBinary logs a line
PASS
ok  	k8s.io/kops/upup/pkg/fi/cloudup	12.3s
`

func TestParse(t *testing.T) {
	run, err := Parse(strings.NewReader(sampleOutput))
	require.NoError(t, err)
	assert.Equal(t, "AMD EPYC 7B13", run.CPU)
	require.Len(t, run.Results, 4)
	assert.Equal(t, Result{Package: "k8s.io/kops/upup/pkg/fi/cloudup", Name: "BenchmarkUpdateClusterDryRunMinimal",
		Measures: map[string]float64{"ns/op": 1.5e6, "B/op": 301000, "allocs/op": 2988}}, run.Results[0])
	assert.Equal(t, "BenchmarkChannelsBinary/operator/cold", run.Results[3].Name)
	assert.Equal(t, 46.0, run.Results[3].Measures["requests/op"])
}

func TestParseRefusesBrokenResults(t *testing.T) {
	for name, line := range map[string]string{
		"odd fields":  "BenchmarkX-2 20 100 ns/op 3",
		"not a value": "BenchmarkX-2 20 abc ns/op",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(line + "\n"))
			assert.Error(t, err)
		})
	}
}

func TestParseSpec(t *testing.T) {
	good := "# comment\n\n. | ./pkg/a | ^BenchmarkA$ | 1s | 5 | the A\n"
	entries, err := ParseSpec(strings.NewReader(good))
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.True(t, entries[0].Matches("BenchmarkA"))
	assert.True(t, entries[0].Matches("BenchmarkA/sub"))
	assert.False(t, entries[0].Matches("BenchmarkAB"))

	for name, line := range map[string]string{
		"five fields":    ". | ./pkg/a | ^BenchmarkA$ | 1s | 5",
		"zero count":     ". | ./pkg/a | ^BenchmarkA$ | 1s | 0 | t",
		"bad expression": ". | ./pkg/a | ^Benchmark( | 1s | 5 | t",
		"sub-benchmark":  ". | ./pkg/a | ^BenchmarkA$/cold | 1s | 5 | t",
		"package not ./": ". | pkg/a | ^BenchmarkA$ | 1s | 5 | t",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseSpec(strings.NewReader(line + "\n"))
			assert.Error(t, err)
		})
	}
}

func TestRenderAndCheck(t *testing.T) {
	entries, err := ParseSpec(strings.NewReader(
		". | ./upup/pkg/fi/cloudup | ^BenchmarkUpdateClusterDryRun | 1s | 3 | dry run\n" +
			"tests/e2e | ./channels/ | ^BenchmarkChannelsBinary$ | 20x | 1 | channels\n"))
	require.NoError(t, err)
	run, err := Parse(strings.NewReader(sampleOutput))
	require.NoError(t, err)
	block, err := Render(entries, []Run{{Results: run.Results[:3]}, {Results: run.Results[3:]}}, Machine{Date: "2026-12-01", Commit: "abc"})
	require.NoError(t, err)
	assert.Contains(t, block, "| `BenchmarkUpdateClusterDryRunMinimal` | 1.60 ms (1.50 ms–1.70 ms) | 294 KB | 2988 |")
	assert.Contains(t, block, "| `BenchmarkChannelsBinary/operator/cold` | 308 ms | 46 |")

	doc, err := Replace("# Perf\n\n"+beginMarker+"\nstale figures\n"+endMarker+"\n\nhistory\n", block)
	require.NoError(t, err)
	assert.NotContains(t, doc, "stale figures")
	assert.True(t, strings.HasSuffix(doc, endMarker+"\n\nhistory\n"))

	funcs := []Func{
		{Module: ".", Package: "./upup/pkg/fi/cloudup", Name: "BenchmarkUpdateClusterDryRunMinimal"},
		{Module: "tests/e2e", Package: "./channels", Name: "BenchmarkChannelsBinary"},
	}
	require.NoError(t, Check(funcs, entries, doc))

	cases := []struct {
		name  string
		funcs []Func
		doc   string
		want  string
	}{
		{"a benchmark in no entry", append(funcs, Func{Module: ".", Package: "./pkg/x", Name: "BenchmarkX"}), doc, "BenchmarkX (. ./pkg/x) is in no entry"},
		{"an entry that runs nothing", funcs[:1], doc, `entry "channels" runs no benchmark`},
		{"figures of a gone benchmark", []Func{funcs[1], {Module: ".", Package: "./upup/pkg/fi/cloudup", Name: "BenchmarkUpdateClusterDryRunOther"}}, doc, "BenchmarkUpdateClusterDryRunMinimal, which no longer exists"},
		{"a document from another list", funcs, strings.Replace(doc, "| 20x |", "| 10x |", 1), "generated from another list"},
		{"no markers", funcs, "# Perf\n", "markers"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.funcs, entries, c.doc)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestBenchmarksFindsFunctionsAndModules(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(text), 0o644))
	}
	write("go.mod", "module m\n")
	write("a/a_test.go", "package a\nimport \"testing\"\nfunc BenchmarkA(b *testing.B) {}\nfunc Benchmarkish(b *testing.B) {}\nfunc BenchmarkHelper(n int) {}\nfunc TestA(t *testing.T) {}\n")
	write("e2e/go.mod", "module m/e2e\n")
	write("e2e/c/c_test.go", "package c\nimport \"testing\"\nfunc BenchmarkC(b *testing.B) {}\n")
	write("_output/x/x_test.go", "package x\nimport \"testing\"\nfunc BenchmarkIgnored(b *testing.B) {}\n")
	funcs, err := Benchmarks(root)
	require.NoError(t, err)
	assert.ElementsMatch(t, []Func{
		{Module: ".", Package: "./a", Name: "BenchmarkA"},
		{Module: "e2e", Package: "./c", Name: "BenchmarkC"},
	}, funcs)
}
