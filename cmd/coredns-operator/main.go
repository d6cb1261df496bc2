// Command coredns-operator runs the CoreDNS operator: it reconciles the CoreDNS object
// kube-system/coredns into the CoreDNS ConfigMap, Deployment, Service and ServiceAccount that kops's
// built-in addon renders, with rights limited to those objects by name (docs/addon-operators.md).
package main

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

	"k8s.io/kops/cmd/coredns-operator/app"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		klog.ErrorS(err, "coredns-operator failed")
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

func run(args []string) error {
	cmd, err := app.ParseFlags(args)
	if err != nil {
		return err
	}
	opts := cmd.Options
	if opts.Identity == "" {
		host, err := os.Hostname()
		if err != nil {
			return fmt.Errorf("--leader-election-identity not set and no host name: %w", err)
		}
		opts.Identity = host
	}
	var cfg *rest.Config
	if cmd.Kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", cmd.Kubeconfig)
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return fmt.Errorf("API server configuration: %w", err)
	}
	cfg.UserAgent = "coredns-operator"
	// The client rate limit is app.Run's (the operator's own, whoever runs it).
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
	ctx = klog.NewContext(ctx, klog.Background().WithName("coredns-operator"))
	return app.Run(ctx, cfg, opts)
}
