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

package s3test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"k8s.io/kops/util/pkg/vfs/s3store"
)

const (
	AccessKey         = "kops-test-admin"
	SecretKey         = "kops-test-admin-secret-0123456789"
	ReadOnlyAccessKey = "kops-test-reader"
	ReadOnlySecretKey = "kops-test-reader-secret-0123456789"
	Region            = "us-east-1"
)

type Server struct {
	Endpoint string
	dir      string
}

var (
	shared    *Server
	sharedErr error
	once      sync.Once
)

func Binary() (string, bool, error) {
	root, err := repoRoot()
	if err != nil {
		return "", false, err
	}
	mod, err := os.ReadFile(filepath.Join(root, "hack", "tools", "seaweedfs", "go.mod"))
	if err != nil {
		return "", false, err
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/seaweedfs/seaweedfs (v\S+)`).FindSubmatch(mod)
	if m == nil {
		return "", false, errors.New("hack/tools/seaweedfs/go.mod pins no github.com/seaweedfs/seaweedfs")
	}
	bin := filepath.Join(root, "_output", "testbin", "seaweedfs-"+string(m[1]), "weed")
	_, err = os.Stat(bin)
	return bin, err == nil, nil
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(data), "module k8s.io/kops\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the k8s.io/kops module")
		}
		dir = parent
	}
}

// Shared is the binary's server, started on first use; without it the test is skipped, or fails
// under KOPS_REQUIRE_TEST_S3=1.
func Shared(t testing.TB) *Server {
	t.Helper()
	bin, ok, err := Binary()
	if err != nil {
		t.Fatalf("finding the test S3 server: %v", err)
	}
	if !ok {
		if os.Getenv("KOPS_REQUIRE_TEST_S3") == "1" {
			t.Fatalf("the test S3 server %s is missing: run hack/build-test-s3.sh", bin)
		}
		t.Skipf("the test S3 server %s is missing: run hack/build-test-s3.sh (make test does)", bin)
	}
	once.Do(func() { shared, sharedErr = start(bin) })
	if sharedErr != nil {
		t.Fatalf("starting the test S3 server: %v", sharedErr)
	}
	return shared
}

// freePorts picks ports below the kernel's ephemeral range, where any connection could take a port
// before the server binds it.
func freePorts(n int) ([]int, error) {
	const lowest = 10000
	below := ephemeralLow()
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries == 1000 {
			return nil, fmt.Errorf("no %d free ports between %d and %d", n, lowest, below)
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", lowest+mrand.IntN(below-lowest)))
		if err != nil {
			continue
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func ephemeralLow() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	var low, high int
	if err == nil {
		_, err = fmt.Sscan(string(data), &low, &high)
	}
	if err != nil || low <= 11000 {
		return 32768
	}
	return low
}

const attempts = 3

func start(bin string) (*Server, error) {
	removeStale()
	// The folder names the test binary, so a later run can tell its server is gone.
	dir, err := os.MkdirTemp("", fmt.Sprintf("kops-s3test-%d-", os.Getpid()))
	if err != nil {
		return nil, err
	}
	config := fmt.Sprintf(`{"identities":[
  {"name":"admin","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Admin","Read","Write","List","Tagging"]},
  {"name":"reader","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Read","List"]}]}`,
		AccessKey, SecretKey, ReadOnlyAccessKey, ReadOnlySecretKey)
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), []byte(config), 0o600); err != nil {
		return nil, err
	}
	var errs []error
	for attempt := 1; attempt <= attempts; attempt++ {
		s, err := startAttempt(bin, dir, attempt)
		if err == nil {
			return s, nil
		}
		errs = append(errs, fmt.Errorf("attempt %d: %w", attempt, err))
		if !errors.Is(err, errExited) {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// errExited: a port given was taken; another attempt may succeed.
var errExited = errors.New("the test S3 server exited")

func startAttempt(bin, dir string, attempt int) (*Server, error) {
	ports, err := freePorts(8)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, fmt.Sprintf("data-%d", attempt))
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	args := []string{"server",
		"-dir=" + data, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		fmt.Sprintf("-master.port=%d", ports[0]), fmt.Sprintf("-master.port.grpc=%d", ports[1]),
		fmt.Sprintf("-volume.port=%d", ports[2]), fmt.Sprintf("-volume.port.grpc=%d", ports[3]),
		"-filer", fmt.Sprintf("-filer.port=%d", ports[4]), fmt.Sprintf("-filer.port.grpc=%d", ports[5]),
		"-s3", fmt.Sprintf("-s3.port=%d", ports[6]), fmt.Sprintf("-s3.port.grpc=%d", ports[7]),
		"-s3.config=" + filepath.Join(dir, "s3.json"),
		"-master.telemetry=false",
		"-master.volumeSizeLimitMB=64", "-volume.max=0",
	}
	s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", ports[6]), dir: dir}
	logName := filepath.Join(dir, fmt.Sprintf("weed-%d.log", attempt))
	log, err := os.Create(logName)
	if err != nil {
		return nil, err
	}
	started := make(chan error, 1)
	exited := make(chan struct{})
	// The server dies with the test binary (Pdeathsig), bound to the thread that started it: keep it locked.
	go func() {
		runtime.LockOSThread()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		// Without WEED_S3_SSE_KEY, SeaweedFS answers a PutObject asking for AES256 with a 500.
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "TMPDIR=" + dir, "WEED_S3_SSE_KEY=kops-test-sse-key"}
		cmd.Stdout, cmd.Stderr = log, log
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		started <- cmd.Start()
		if cmd.Process != nil {
			_ = cmd.Wait()
		}
		close(exited)
		select {}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	if err := s.waitReady(90*time.Second, exited); err != nil {
		return nil, fmt.Errorf("%w; its log:\n%s", err, tail(logName))
	}
	return s, nil
}

// removeStale removes only folders whose test binary has exited: several run at once.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "kops-s3test-*-*"))
	for _, dir := range dirs {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(dir), "kops-s3test-%d-", &pid); err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			_ = os.RemoveAll(dir)
		}
	}
}

func tail(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return err.Error()
	}
	defer func() { _ = f.Close() }()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > 40 {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// waitReady waits until a bucket can be made and written; the gateway answers before the filer is up.
func (s *Server) waitReady(limit time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(limit)
	c := s.Client(AccessKey, SecretKey)
	bucket := "kops-s3test-ready"
	var err error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket})
		if err == nil || strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") || strings.Contains(err.Error(), "BucketAlreadyExists") {
			_, err = c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("ready"), Body: strings.NewReader("ok")})
		}
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("%w before it was ready (last: %v)", errExited, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
	return fmt.Errorf("the test S3 server did not get ready in %s: %v", limit, err)
}

func (s *Server) Client(key, secret string) *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(key, secret, ""),
	})
}

func (s *Server) Settings() s3store.Settings {
	return s3store.Settings{Endpoint: s.Endpoint, Region: Region, AccessKeyID: AccessKey, SecretAccessKey: SecretKey}
}

func (s *Server) Env() map[string]string {
	return map[string]string{"S3_ENDPOINT": s.Endpoint, "S3_REGION": Region, "S3_ACCESS_KEY_ID": AccessKey, "S3_SECRET_ACCESS_KEY": SecretKey}
}

func (s *Server) NewBucket(t testing.TB) string {
	t.Helper()
	var b [5]byte
	_, _ = rand.Read(b[:])
	name := "kops-test-" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Client(AccessKey, SecretKey).CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name}); err != nil {
		t.Fatalf("creating bucket %s: %v", name, err)
	}
	return name
}
