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

package netnstest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
)

// flushes are the ways a node's rules get wiped after boot: a restore of whole tables (what a
// firewall service or an admin's iptables-restore without --noflush does), and flushing the
// tables' chains.
var flushes = []struct {
	name string
	// script runs in the node namespace with sh -c.
	script string
}{
	{"iptables-restore without --noflush", `for c in iptables ip6tables; do
printf '*raw\nCOMMIT\n*mangle\nCOMMIT\n*nat\nCOMMIT\n' | "$c-restore" -w || exit 1
done`},
	{"every chain of raw and mangle flushed", `for c in iptables ip6tables; do
for t in raw mangle; do "$c" -w -t "$t" -F || exit 1; done
done`},
}

// reassertDeadline is how long the test waits for the rules to come back: generous, since the
// window itself is measured and reported, never asserted as a time limit.
const reassertDeadline = 60 * time.Second

// TestRulesComeBackAfterAFlush runs the guard the node runs next to the boot unit, flushes the
// rules under it, and measures how long the pod reaches instance metadata before they are back.
func TestRulesComeBackAfterAFlush(t *testing.T) {
	for _, mode := range []string{kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward} {
		for _, f := range flushes {
			t.Run(mode+"/"+f.name, func(t *testing.T) {
				tp := newTopology(t, routed(podInterfaceName), false)
				c := cluster(mode, true, calico())
				tp.apply(t, c)
				held := tp.rules(t)
				guard := tp.startGuard(t, c)
				require.Eventually(t, func() bool { return strings.Contains(guard.String(), "checking it every") },
					reassertDeadline, 100*time.Millisecond, "the guard started")
				checkMode(t, tp, mode, true)

				run(t, "ip", "netns", "exec", tp.node, "sh", "-c", f.script)
				flushed := time.Now()
				require.NotEqual(t, held, tp.rules(t), "the flush removed the rules")

				lastOpen, firstClosed, back := openWindow(tp, flushed)
				require.True(t, back, "the rules were not back %s after the flush:\n%s", reassertDeadline, tp.rules(t))
				t.Logf("after %s, the pod reached instance metadata for %s (last answered probe sent then; the first dropped one %s after the flush)",
					f.name, lastOpen.Round(10*time.Millisecond), firstClosed.Round(10*time.Millisecond))
				assert.Equal(t, held, tp.rules(t), "the guard put back exactly the rules the boot unit applied")
				checkMode(t, tp, mode, true)
			})
		}
	}
}

// TestRulesComeBackWhenFlushedAsTheGuardStarts: a firewall service starting with the guard may
// flush the rules between the guard writing them and reading what it wrote; the guard must not
// keep that flushed state as the one to hold.
func TestRulesComeBackWhenFlushedAsTheGuardStarts(t *testing.T) {
	tp := newTopology(t, routed(podInterfaceName), false)
	c := cluster(kops.PodMetadataAccessBlock, true, calico())
	tp.apply(t, c)
	held := tp.rules(t)
	tp.startGuard(t, c)
	for range 20 {
		run(t, "ip", "netns", "exec", tp.node, "sh", "-c", flushes[0].script)
		time.Sleep(50 * time.Millisecond)
	}
	require.Eventually(t, func() bool { return tp.rules(t) == held }, reassertDeadline, 200*time.Millisecond,
		"the rules came back after flushes while the guard started")
	checkMode(t, tp, kops.PodMetadataAccessBlock, true)
}

// openWindow probes instance metadata from the pod over both families, on the HTTP port and
// another, until none is answered by it, and returns how long after flushed the last answered probe
// was sent (zero if none was) and the first unanswered one: the window lies between the two.
func openWindow(tp *topology, flushed time.Time) (lastOpen, firstClosed time.Duration, back bool) {
	var addrs []string
	for _, f := range families {
		addrs = append(addrs, net.JoinHostPort(f.imds, "80"), net.JoinHostPort(f.imds, otherPort))
	}
	last := flushed
	for time.Since(flushed) < reassertDeadline {
		sent := time.Now()
		open := false
		for _, r := range probe(tp.pod, addrs...) {
			if r.err == nil && strings.HasPrefix(r.body, "imds ") {
				open = true
			}
		}
		if !open {
			return last.Sub(flushed), sent.Sub(flushed), true
		}
		if open {
			last = sent
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, 0, false
}

// startGuard runs, in the node namespace, the command of the guard unit kops renders for c, with
// the script at a file of the test, until the test ends.
func (tp *topology) startGuard(t *testing.T, c *kops.Cluster) *syncBuffer {
	t.Helper()
	r, err := nodesetup.RulesFor(c, nil)
	require.NoError(t, err)
	var args []string
	for _, line := range strings.Split(string(nodesetup.RenderGuardUnit(r)), "\n") {
		if exec, ok := strings.CutPrefix(line, "ExecStart="); ok {
			args = strings.Fields(exec)
		}
	}
	require.NotEmpty(t, args, "the guard unit has an ExecStart")
	require.Equal(t, nodesetup.ScriptPath, args[0])
	args[0] = tp.writeScript(t, c)
	cmd := exec.Command("ip", append([]string{"netns", "exec", tp.node, "/bin/sh"}, args...)...)
	cmd.Env = tp.env(os.Getenv("PATH"))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Logf("guard output:\n%s", out.String())
	})
	return out
}

// syncBuffer is the guard's output, read by the test while the process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestAFailingIp6tablesChangesNothing: ip6tables is there but fails (no ip6_tables module, a
// broken install). The script must fail before it changes any rule of either family, so the
// node stays as it was and kubelet does not start.
func TestAFailingIp6tablesChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stubs []string
	}{
		{"ip6tables and ip6tables-restore fail", []string{"ip6tables", "ip6tables-restore"}},
		{"only ip6tables-restore fails", []string{"ip6tables-restore"}},
	} {
		for _, start := range []string{"", kops.PodMetadataAccessForward} {
			t.Run(tc.name+"/from "+map[string]string{"": "a fresh node", "Forward": "Forward"}[start], func(t *testing.T) {
				tp := newTopology(t, routed(podInterfaceName), false)
				if start != "" {
					tp.apply(t, cluster(start, true, calico()))
				}
				before := tp.rules(t)
				bin := t.TempDir()
				for _, stub := range tc.stubs {
					require.NoError(t, os.WriteFile(filepath.Join(bin, stub),
						[]byte("#!/bin/sh\necho \"$0: can't initialize ip6tables table: Table does not exist\" >&2\nexit 1\n"), 0o755))
				}
				out, err := tp.tryApply(t, cluster(kops.PodMetadataAccessBlock, true, calico()), bin+":"+os.Getenv("PATH"))
				require.Error(t, err, "the script must fail: %s", out)
				assert.Contains(t, out, "ip6tables")
				assert.Contains(t, out, "no rule changed")
				assert.Equal(t, before, tp.rules(t), "no rule of either family changed")
			})
		}
	}
}

// TestNAT64FormOfMetadata: 64:ff9b::a9fe:a9fe is 169.254.169.254 behind the well-known NAT64
// prefix (RFC 6052); where a translator serves it, it is instance metadata over IPv6. Pods must
// not reach it in Block or Forward (Forward forwards only the metadata address itself); the
// node keeps it.
func TestNAT64FormOfMetadata(t *testing.T) {
	for _, cf := range clusterFamilies {
		for _, mode := range modes {
			t.Run(cf.name+"/"+mode, func(t *testing.T) {
				tp := newTopology(t, routed(podInterfaceName), false)
				tp.apply(t, cluster(mode, cf.ipv6, calico()))
				addrs := []string{net.JoinHostPort(nat64IMDS, "80"), net.JoinHostPort(nat64IMDS, otherPort)}
				node := probe(tp.node, addrs...)
				pod := probe(tp.pod, addrs...)
				for i := range addrs {
					if assert.NoError(t, node[i].err, "the node reaches %s", addrs[i]) {
						assert.Regexp(t, `^imds `, node[i].body)
					}
					if mode == kops.PodMetadataAccessAllow {
						assert.NoError(t, pod[i].err, "Allow: the pod reaches %s", addrs[i])
						continue
					}
					assertDropped(t, pod[i].err, "%s: the pod must not reach %s, got %q", mode, addrs[i], pod[i].body)
				}
			})
		}
	}
}
