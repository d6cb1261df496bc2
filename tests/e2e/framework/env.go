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

package framework

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// startTimeout bounds each of etcd's and kube-apiserver's start: a few seconds on an idle machine,
// with room for a busy CI machine.
const startTimeout = 60 * time.Second

// ServiceClusterIPRanges are kops's default IPv4 and IPv6 service ranges.
const ServiceClusterIPRanges = "100.64.0.0/13,fd00:5e4f:ce::/108"

// requestTimeout bounds one call to the server, so that a hung server fails
// a test instead of stalling it.
const requestTimeout = 30 * time.Second

// Env is a running kube-apiserver with RBAC authorization.
type Env struct {
	// Config is the admin's (a member of system:masters). Copy it before
	// changing it, or use Impersonate.
	Config *rest.Config
	// Scheme knows the built-in types and CustomResourceDefinitions.
	Scheme *runtime.Scheme
	// Client is a controller-runtime client acting as the admin.
	Client client.Client
	// Clientset is a client-go clientset acting as the admin.
	Clientset kubernetes.Interface

	testEnv *envtest.Environment
	// auditDir holds the audit policy and log (Options.AuditDeletes); "" without.
	auditDir, auditLog string
	stop               sync.Once
	stopErr            error
}

// Start starts a server for t and stops it when t ends. It fails t when the
// server cannot start, including when the binaries have not been built.
func Start(t testing.TB) *Env {
	t.Helper()
	env, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the test API server: %v", err)
		}
	})
	return env
}

// Main starts one server, hands it to setup, runs the package's tests and
// stops the server; it exits the process. Call it from TestMain. When the
// server cannot start the package fails with the reason.
func Main(m *testing.M, setup func(*Env)) {
	MainWith(m, Options{}, setup)
}

// MainWith is Main with a server started with opts.
func MainWith(m *testing.M, opts Options, setup func(*Env)) {
	os.Exit(run(m, opts, setup))
}

func run(m *testing.M, opts Options, setup func(*Env)) int {
	// New reads testing.Verbose, which needs the flags parsed (m.Run parses
	// them again, harmlessly).
	flag.Parse()
	env, err := NewWith(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: %v\n", err)
		return 1
	}
	stop := func() {
		if err := env.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping the test API server: %v\n", err)
		}
	}
	defer stop()
	// An interrupted run (Ctrl-C, a CI timeout) must not leave etcd and
	// kube-apiserver running. (go test -timeout kills the process outright;
	// nothing can be done about that here.)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		if sig, ok := <-signals; ok {
			fmt.Fprintf(os.Stderr, "%v: stopping the test API server\n", sig)
			stop()
			os.Exit(1)
		}
	}()
	setup(env)
	return m.Run()
}

// New starts a server; the caller must Stop it. Start and Main are the usual
// ways in.
func New() (*Env, error) { return NewWith(Options{}) }

// NewWith is New with opts.
func NewWith(opts Options) (*Env, error) {
	quietLogs()
	dir, err := binaryDir()
	if err != nil {
		return nil, err
	}
	if err := checkBinaries(dir); err != nil {
		return nil, err
	}

	useExisting := false
	testEnv := &envtest.Environment{
		BinaryAssetsDirectory:    dir,
		UseExistingCluster:       &useExisting,
		ControlPlaneStartTimeout: startTimeout,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	// Explicit paths: the binaries checked above are the ones that run.
	testEnv.ControlPlane.Etcd = &envtest.Etcd{Path: filepath.Join(dir, "etcd")}
	apiServer := testEnv.ControlPlane.GetAPIServer()
	apiServer.Path = filepath.Join(dir, "kube-apiserver")
	// envtest defaults to RBAC too; say so, since without it every request
	// is allowed and authorization tests prove nothing.
	apiServer.Configure().Set("authorization-mode", "RBAC")
	// kops's service ranges, so that Service kube-dns can get the clusterIP kops gives it, in both
	// families (the ipv6 golden case uses fd00:5e4f:ce::a).
	apiServer.Configure().Set("service-cluster-ip-range", ServiceClusterIPRanges)
	var auditDir, auditLog string
	if opts.AuditDeletes {
		if auditDir, err = os.MkdirTemp("", "e2e-audit-"); err != nil {
			return nil, err
		}
		if auditLog, err = configureAudit(auditDir, func(k, v string) { apiServer.Configure().Set(k, v) }); err != nil {
			_ = os.RemoveAll(auditDir)
			return nil, err
		}
	}

	start := time.Now()
	cfg, err := testEnv.Start()
	if err != nil {
		// Start may have left etcd running when the API server failed.
		_ = testEnv.Stop()
		if auditDir != "" {
			_ = os.RemoveAll(auditDir)
		}
		return nil, fmt.Errorf("starting the test API server from %s: %w", dir, err)
	}
	env := &Env{Config: cfg, testEnv: testEnv, auditDir: auditDir, auditLog: auditLog}
	if err := env.connect(); err != nil {
		_ = env.Stop()
		return nil, err
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "test API server %s started in %s at %s\n", KubernetesVersion, time.Since(start).Round(10*time.Millisecond), cfg.Host)
	}
	return env, nil
}

func (e *Env) connect() error {
	e.Scheme = runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(e.Scheme); err != nil {
		return fmt.Errorf("building the scheme: %w", err)
	}
	if err := apiextensionsv1.AddToScheme(e.Scheme); err != nil {
		return fmt.Errorf("building the scheme: %w", err)
	}
	var err error
	if e.Client, err = client.New(e.Config, client.Options{Scheme: e.Scheme}); err != nil {
		return fmt.Errorf("creating the admin client: %w", err)
	}
	if e.Clientset, err = kubernetes.NewForConfig(e.Config); err != nil {
		return fmt.Errorf("creating the admin clientset: %w", err)
	}
	return nil
}

// Stop stops the server and etcd and removes their data. It is safe to call
// more than once.
func (e *Env) Stop() error {
	e.stop.Do(func() {
		e.stopErr = e.testEnv.Stop()
		if e.auditDir != "" {
			if err := os.RemoveAll(e.auditDir); err != nil && e.stopErr == nil {
				e.stopErr = err
			}
		}
	})
	return e.stopErr
}

// Context returns a context for calls to the server, cancelled when t ends and
// after 30 s at most.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	t.Cleanup(cancel)
	return ctx
}

var quietOnce sync.Once

// quietLogs silences klog (client-go's logger) and controller-runtime's
// logger, which otherwise complains after a while that none was set.
func quietLogs() {
	quietOnce.Do(func() {
		klog.SetLogger(logr.Discard())
		ctrllog.SetLogger(logr.Discard())
	})
}
