// Package netnstest proves the node script of pkg/model/nodesetup in network namespaces: a pod
// namespace joined to a node namespace by a veth named like the CNI's, and a cloud namespace holding
// the fake instance metadata service behind the node's primary interface. Every address is a
// documentation range inside namespaces this test makes and deletes; no packet leaves them.
package netnstest

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// requirePackages is set by the Makefile, which installs iptables and iproute2: there a missing
// command fails the test instead of skipping it.
var requirePackages = os.Getenv("KOPS_REQUIRE_TEST_PACKAGES") == "1"

// needRootAndTools skips (or, under the Makefile, fails) when the proof cannot run here.
func needRootAndTools(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("network namespace proof needs root (CI runs as root); skipped")
	}
	for _, tool := range []string{"ip", "iptables", "iptables-restore", "ip6tables", "ip6tables-restore"} {
		if _, err := exec.LookPath(tool); err != nil {
			if requirePackages {
				t.Fatalf("%s not found: run hack/install-test-packages.sh", tool)
			}
			t.Skipf("%s not found: run hack/install-test-packages.sh; skipped", tool)
		}
	}
}

var nsCounter atomic.Int32

// newNetns makes a network namespace that is deleted when the test ends, whatever happens.
func newNetns(t *testing.T, role string) string {
	t.Helper()
	name := fmt.Sprintf("kopsmd-%d-%d-%s", os.Getpid(), nsCounter.Add(1), role)
	run(t, "ip", "netns", "add", name)
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", name).CombinedOutput(); err != nil {
			t.Errorf("deleting netns %s: %v: %s", name, err, out)
		}
	})
	run(t, "ip", "-n", name, "link", "set", "lo", "up")
	return name
}

func run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	require.NoError(t, err, "%s: %s", strings.Join(args, " "), out)
	return string(out)
}

// inNetns runs f on an OS thread switched into the namespace; sockets f opens stay in it.
func inNetns(ns string, f func() error) error {
	runtime.LockOSThread()
	original, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer original.Close()
	target, err := os.Open(filepath.Join("/var/run/netns", ns))
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("entering %s: %w", ns, err)
	}
	ferr := f()
	if err := unix.Setns(int(original.Fd()), unix.CLONE_NEWNET); err != nil {
		// The thread stays locked and dies with its goroutine rather than serve others in ns.
		return fmt.Errorf("leaving %s: %w", ns, err)
	}
	runtime.UnlockOSThread()
	return ferr
}

// fakeServer answers every request with its name and the client's address, and remembers the
// clients it saw.
type fakeServer struct {
	name string
	mu   sync.Mutex
	seen []string
}

func (s *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	s.mu.Lock()
	s.seen = append(s.seen, host)
	s.mu.Unlock()
	fmt.Fprintf(w, "%s %s", s.name, host)
}

// serve listens on addr inside ns until the test ends.
func serve(t *testing.T, ns, addr string, h http.Handler) {
	t.Helper()
	var ln net.Listener
	require.NoError(t, inNetns(ns, func() (err error) {
		ln, err = net.Listen("tcp", addr)
		return err
	}), "listening on %s in %s", addr, ns)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
}

// dialTimeout bounds a connection attempt: on these veths a reachable server answers in well under
// a millisecond, so a timeout means the packets were dropped.
const dialTimeout = 700 * time.Millisecond

// get sends GET / to addr from inside ns and returns the body.
func get(ns, addr string) (string, error) {
	var conn net.Conn
	if err := inNetns(ns, func() (err error) {
		conn, err = net.DialTimeout("tcp", addr, dialTimeout)
		return err
	}); err != nil {
		return "", err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return "", err
	}
	if _, err := fmt.Fprintf(conn, "GET / HTTP/1.0\r\nHost: metadata\r\n\r\n"); err != nil {
		return "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, err = bufio.NewReader(resp.Body).WriteTo(&b)
	return b.String(), err
}
