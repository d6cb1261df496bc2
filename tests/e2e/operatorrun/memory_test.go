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

package operatorrun

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// Unrelated ConfigMaps the memory measurement creates in kube-system, and the size of each: were
// the operator's caches not scoped to their one name, they would hold 16 MiB of data more.
const (
	unrelatedConfigMaps = 1000
	unrelatedBytes      = 16 << 10
)

// residentKB is VmRSS of process pid, in KiB, from /proc/<pid>/status.
func residentKB(t testing.TB, pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb
		}
	}
	require.NoError(t, s.Err())
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// binaryMemory is what measureBinary saw.
type binaryMemory struct {
	startToStatus             time.Duration
	beforeKB, afterKB, peakKB int64
}

// measureBinary starts the built operator binary on a server of its own under its own token,
// measures the time until its first status, its resident memory once reconciled, then again after
// unrelatedConfigMaps ConfigMaps exist in kube-system and it has reconciled a Corefile change.
func measureBinary(t testing.TB) binaryMemory {
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })
	applyOperatorAddons(t, "addon-operators", false)
	ctx := context.Background()
	var m binaryMemory

	binary := kopsenv.Build(t, "./cmd/coredns-operator")
	started := time.Now()
	cmd, stderr, exited := startBinary(t, binary, "--health-probe-bind-address=", "--leader-election-identity=memory")
	for coreDNS(t).Status == nil {
		require.Less(t, time.Since(started), 20*time.Second, "no status; stderr:\n%s", stderr.String())
		time.Sleep(5 * time.Millisecond)
	}
	m.startToStatus = time.Since(started)
	time.Sleep(time.Second) // let start-up garbage be collected
	m.beforeKB = residentKB(t, cmd.Process.Pid)

	data := strings.Repeat("x", unrelatedBytes)
	names := make(chan int)
	var wg sync.WaitGroup
	errs := make(chan error, unrelatedConfigMaps)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("unrelated-%04d", i), Namespace: "kube-system"}, Data: map[string]string{"data": data}}
				if _, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range unrelatedConfigMaps {
		names <- i
	}
	close(names)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	// The operator is alive and working after them: it applies a Corefile change.
	want := coreDNS(t).Spec.Corefile + "# after the unrelated ConfigMaps\n"
	patchSpec(t, corefileSpec(want))
	eventually(t, "ConfigMap coredns", func() string {
		cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if cm.Data["Corefile"] != want {
			return "the old Corefile"
		}
		return ""
	})
	time.Sleep(time.Second)
	m.afterKB = residentKB(t, cmd.Process.Pid)
	m.peakKB = peakKB(t, cmd.Process.Pid)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, <-exited, "exit after SIGTERM; stderr:\n%s", stderr.String())
	// This run's server is stopped now, not when the test or benchmark ends: BenchmarkOperatorBinary
	// runs b.N of them, and an interrupted benchmark would leave all of them running.
	own := env
	env = shared
	require.NoError(t, own.Stop())
	return m
}

// peakKB is VmHWM, the highest resident memory of process pid, in KiB.
func peakKB(t testing.TB, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// TestOperatorMemoryIgnoresUnrelatedConfigMaps: the binary's resident memory does not follow what
// kube-system holds. Its caches list and watch one name each, so 1,000 ConfigMaps of 16 KiB
// (16 MiB of data, more once decoded) never reach it; the bound allows a quarter of that for the
// garbage collector's slack, so an unscoped cache fails it and noise does not.
func TestOperatorMemoryIgnoresUnrelatedConfigMaps(t *testing.T) {
	m := measureBinary(t)
	t.Logf("start to first status %v; resident %d KiB before, %d KiB after %d unrelated ConfigMaps (peak %d KiB)",
		m.startToStatus, m.beforeKB, m.afterKB, unrelatedConfigMaps, m.peakKB)
	assert.Less(t, m.afterKB-m.beforeKB, int64(unrelatedConfigMaps*unrelatedBytes/1024/4), "resident memory grew by %d KiB", m.afterKB-m.beforeKB)
}

// BenchmarkOperatorBinary reports, per run of the built binary: the time from its start to its
// first status, and its resident memory before and after 1,000 unrelated ConfigMaps (run with
// -benchtime=1x; each iteration starts a server of its own).
func BenchmarkOperatorBinary(b *testing.B) {
	var sum binaryMemory
	for i := 0; i < b.N; i++ {
		m := measureBinary(b)
		sum.startToStatus += m.startToStatus
		sum.beforeKB += m.beforeKB
		sum.afterKB += m.afterKB
		sum.peakKB = max(sum.peakKB, m.peakKB)
	}
	n := float64(b.N)
	b.ReportMetric(float64(sum.startToStatus.Microseconds())/1000/n, "start-to-first-status-ms")
	b.ReportMetric(float64(sum.beforeKB)/1024/n, "rss-MB")
	b.ReportMetric(float64(sum.afterKB)/1024/n, "rss-with-1000-configmaps-MB")
	b.ReportMetric(float64(sum.peakKB)/1024, "peak-rss-MB")
}
