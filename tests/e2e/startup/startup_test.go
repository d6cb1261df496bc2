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

package startup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// command is one start-up measured: a binary of the repository and its arguments, in a folder
// prepared for it (a file:// store holding one cluster for kops get).
type command struct {
	name, binary string
	args         []string
}

func commands(tb testing.TB) []command {
	if _, err := os.Stat(timeCommand); err != nil {
		tb.Fatalf("%s is missing: hack/install-test-packages.sh installs it (package time)", timeCommand)
	}
	bin := kopsenv.BuildCommands(tb, "kops", "channels")
	kops, channels := filepath.Join(bin, "kops"), filepath.Join(bin, "channels")
	store := "file://" + filepath.Join(tb.TempDir(), "state")
	out, err := exec.Command(kops, "create", "cluster", "startup.k8s.local", "--zones", "us-east-2a", "--state", store).CombinedOutput()
	require.NoError(tb, err, "%s", out)
	return []command{
		{"kops-version", kops, []string{"version"}},
		{"kops-get-clusters-yaml", kops, []string{"get", "clusters", "-o", "yaml", "--state", store}},
		{"channels-help", channels, []string{"--help"}},
	}
}

// sample is one process's start-up.
type sample struct {
	wall, cpu time.Duration
	maxRSSKB  int64
	initTime  time.Duration // sum of the init trace's per-package times; 0 without the trace
	packages  int
}

var initLine = regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, ([0-9.]+) ms clock`)

// timeCommand is GNU time, which reports its child's peak memory (%M, in KB). The command's own
// rusage cannot: os/exec starts it with vfork, so its peak is at least the test process's.
const timeCommand = "/usr/bin/time"

// run starts the command once, directly (wall and CPU time); with trace, under GODEBUG=inittrace=1
// (the packages and their init time); with peak, under GNU time (its peak memory).
func run(tb testing.TB, c command, trace, peak bool) sample {
	name, args := c.binary, c.args
	rssFile := filepath.Join(tb.TempDir(), "rss")
	if peak {
		name, args = timeCommand, append([]string{"-f", "%M", "-o", rssFile, c.binary}, c.args...)
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "KOPS_FEATURE_FLAGS=", "KUBECONFIG=")
	if trace {
		cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	require.NoError(tb, err, "%s %v: %s", c.binary, c.args, stderr.String())
	if peak {
		rss, err := os.ReadFile(rssFile)
		require.NoError(tb, err)
		s.maxRSSKB, err = strconv.ParseInt(strings.TrimSpace(string(rss)), 10, 64)
		require.NoError(tb, err, "GNU time's %%M: %q", rss)
	}
	for _, m := range initLine.FindAllStringSubmatch(stderr.String(), -1) {
		ms, err := strconv.ParseFloat(m[2], 64)
		require.NoError(tb, err)
		s.initTime += time.Duration(ms * float64(time.Millisecond))
		s.packages++
	}
	return s
}

// TestCommandsStartAndTraceTheirInit: each command runs, and the init trace is read (so the
// benchmark's package-init figure is real).
func TestCommandsStartAndTraceTheirInit(t *testing.T) {
	for _, c := range commands(t) {
		t.Run(c.name, func(t *testing.T) {
			s := run(t, c, true, true)
			assert.Greater(t, s.packages, 10, "the init trace lists the packages initialised")
			assert.Positive(t, s.maxRSSKB)
		})
	}
}

// BenchmarkStartup: wall time per process (ns/op) and, from the same runs, its CPU time; from one
// run under GNU time its peak resident memory; from one traced run the packages initialised and
// their init time.
func BenchmarkStartup(b *testing.B) {
	for _, c := range commands(b) {
		b.Run(c.name, func(b *testing.B) {
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				cpu += run(b, c, false, false).cpu
			}
			b.StopTimer()
			peak := run(b, c, false, true).maxRSSKB
			traced := run(b, c, true, false)
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(peak)/1024, "peak-rss-MB")
			b.ReportMetric(float64(traced.initTime.Microseconds())/1000, "init-ms")
			b.ReportMetric(float64(traced.packages), "packages-initialised")
			fi, err := os.Stat(c.binary)
			require.NoError(b, err)
			b.ReportMetric(float64(fi.Size())/(1<<20), "binary-MB")
		})
	}
}
