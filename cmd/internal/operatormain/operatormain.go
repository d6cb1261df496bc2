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

package operatormain

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/operator/manager"
)

// Main runs run with the process's arguments and exits non-zero, logged, when it fails.
func Main(name string, run func(args []string) error) {
	if err := run(os.Args[1:]); err != nil {
		klog.ErrorS(err, name+" failed")
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

// Run runs addon's operator as the command line cmd says, until SIGTERM or an interrupt.
func Run[S comparable](name string, cmd manager.Command, addon manager.Addon[S]) error {
	opts := cmd.Options
	if opts.Identity == "" {
		host, err := os.Hostname()
		if err != nil {
			return fmt.Errorf("--leader-election-identity not set and no host name: %w", err)
		}
		opts.Identity = host
	}
	var cfg *rest.Config
	var err error
	if cmd.Kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", cmd.Kubeconfig)
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return fmt.Errorf("API server configuration: %w", err)
	}
	cfg.UserAgent = name
	// The client rate limit is manager.Run's (the operator's own, whoever runs it).
	if cmd.ProbeAddress != "" {
		l, err := net.Listen("tcp", cmd.ProbeAddress)
		if err != nil {
			return fmt.Errorf("--health-probe-bind-address: %w", err)
		}
		opts.ProbeListener = l
	}
	// SIGTERM (the kubelet stopping the pod) ends the context: the operator finishes its current
	// reconcile, releases its lease so another replica takes over at once, and exits 0.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ctx = klog.NewContext(ctx, klog.Background().WithName(name))
	return manager.Run(ctx, cfg, opts, addon)
}
