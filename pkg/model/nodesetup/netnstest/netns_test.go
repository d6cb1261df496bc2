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
	// No duplicate address detection on the links made later: a tentative link-local address
	// leaves neighbor discovery unanswered for a second, longer than a probe waits.
	run(t, "ip", "netns", "exec", name, "sysctl", "-q", "-w", "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0")
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
	defer func() { _ = original.Close() }()
	target, err := os.Open(filepath.Join("/var/run/netns", ns))
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer func() { _ = target.Close() }()
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
	_, _ = fmt.Fprintf(w, "%s %s", s.name, host)
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
	return request(conn)
}

// request sends GET / over conn, closes it and returns the body.
func request(conn net.Conn) (string, error) {
	defer func() { _ = conn.Close() }()
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
	defer func() { _ = resp.Body.Close() }()
	var b strings.Builder
	_, err = bufio.NewReader(resp.Body).WriteTo(&b)
	return b.String(), err
}

// getMapped sends GET / from an IPv6 socket of ns to the IPv4-mapped form of ip (::ffff:a.b.c.d),
// which the kernel turns into IPv4 packets. Go's dialer would pick an IPv4 socket itself.
func getMapped(ns string, ip net.IP, port int) (string, error) {
	sa := &unix.SockaddrInet6{Port: port}
	copy(sa.Addr[:], ip.To16())
	return getRaw(ns, unix.AF_INET6, sa, func(fd int) error {
		return unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_V6ONLY, 0)
	})
}

// getSourceRouted sends GET / from ns to ip:port with a loose source route (IPv4 option LSRR)
// through firstHop: the packets leave addressed to firstHop, and ip is the last entry of the
// route, where the first hop is meant to send them on.
func getSourceRouted(ns string, firstHop, ip net.IP, port int) (string, error) {
	sa := &unix.SockaddrInet4{Port: port}
	copy(sa.Addr[:], ip.To4())
	// NOP, then LSRR: type, length 7, pointer 4, one address. Linux takes the first address of a
	// user's route as the first hop and writes the socket's destination into the last slot.
	const nop, lsrr = 0x01, 0x83 // RFC 791
	opt := append([]byte{nop, lsrr, 7, 4}, firstHop.To4()...)
	return getRaw(ns, unix.AF_INET, sa, func(fd int) error {
		return unix.SetsockoptString(fd, unix.IPPROTO_IP, unix.IP_OPTIONS, string(opt))
	})
}

// getRaw connects a TCP socket of domain, prepared by setup, to sa from inside ns, within
// dialTimeout, and sends GET / over it.
func getRaw(ns string, domain int, sa unix.Sockaddr, setup func(fd int) error) (string, error) {
	var conn net.Conn
	if err := inNetns(ns, func() error {
		fd, err := unix.Socket(domain, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		f := os.NewFile(uintptr(fd), "probe")
		defer func() { _ = f.Close() }()
		timeout := unix.NsecToTimeval(dialTimeout.Nanoseconds())
		if err := setup(fd); err != nil {
			return err
		}
		if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &timeout); err != nil {
			return err
		}
		// A blocking connect gives up after SO_SNDTIMEO with EINPROGRESS: the SYN went unanswered.
		if err := unix.Connect(fd, sa); err == unix.EINPROGRESS {
			return unix.ETIMEDOUT
		} else if err != nil {
			return err
		}
		conn, err = net.FileConn(f)
		return err
	}); err != nil {
		return "", err
	}
	return request(conn)
}
