// Command coredns-operator runs the CoreDNS operator: it reconciles the CoreDNS object
// kube-system/coredns into the CoreDNS ConfigMap, Deployment, Service and ServiceAccount that kops's
// built-in addon renders, with rights limited to those objects by name (docs/addon-operators.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"k8s.io/kops/cmd/coredns-operator/app"
	kubecfg "k8s.io/kops/pkg/kubeconfig"
	"k8s.io/kops/pkg/model/components/corednsoperator"
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
	opts := app.DefaultOptions()
	fs := flag.NewFlagSet("coredns-operator", flag.ContinueOnError)
	klog.InitFlags(fs)
	fs.StringVar(&opts.Namespace, "leader-election-namespace", opts.Namespace, "namespace the operator runs in; its leader-election lease is kept there")
	fs.StringVar(&opts.Namespace, "namespace", opts.Namespace, "same as --leader-election-namespace")
	watchNamespace := fs.String("watch-namespace", corednsoperator.WatchNamespace, "namespace of the CoreDNS object; only "+corednsoperator.WatchNamespace+", where the operator's rights are")
	fs.BoolVar(&opts.LeaderElect, "leader-elect", opts.LeaderElect, "reconcile only while holding the lease coredns-operator-leader")
	fs.StringVar(&opts.Identity, "leader-election-identity", "", "this replica's name in the lease (default: the host name)")
	fs.DurationVar(&opts.LeaseDuration, "leader-election-lease-duration", opts.LeaseDuration, "how long a lease is valid without renewal")
	fs.DurationVar(&opts.RenewDeadline, "leader-election-renew-deadline", opts.RenewDeadline, "how long the leader tries to renew before giving up")
	fs.DurationVar(&opts.RetryPeriod, "leader-election-retry-period", opts.RetryPeriod, "how often to try to take or renew the lease")
	probeAddress := fs.String("health-probe-bind-address", ":8081", "address serving /healthz and /readyz (empty: none)")
	fs.Func("coredns-cpu-request", "CoreDNS container's CPU request, spec.kubeDNS.cpuRequest (default "+opts.Facts.CPURequest.String()+")", quantity(&opts.Facts.CPURequest))
	fs.Func("coredns-memory-request", "CoreDNS container's memory request, spec.kubeDNS.memoryRequest (default "+opts.Facts.MemoryRequest.String()+")", quantity(&opts.Facts.MemoryRequest))
	fs.Func("coredns-memory-limit", "CoreDNS container's memory limit, spec.kubeDNS.memoryLimit (default "+opts.Facts.MemoryLimit.String()+")", quantity(&opts.Facts.MemoryLimit))
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file (default: the in-cluster service account)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *watchNamespace != corednsoperator.WatchNamespace {
		return fmt.Errorf("--watch-namespace=%s: the operator manages CoreDNS in %s only", *watchNamespace, corednsoperator.WatchNamespace)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if opts.Identity == "" {
		host, err := os.Hostname()
		if err != nil {
			return fmt.Errorf("--leader-election-identity not set and no host name: %w", err)
		}
		opts.Identity = host
	}
	var cfg *rest.Config
	var err error
	if *kubeconfig != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", *kubeconfig)
	} else {
		cfg, err = rest.InClusterConfig()
	}
	if err != nil {
		return fmt.Errorf("API server configuration: %w", err)
	}
	cfg.UserAgent = "coredns-operator"
	// client-go's default limit (5/s, bursts of 10) would queue the applies of a rollout's status
	// events behind each other.
	cfg.QPS, cfg.Burst = kubecfg.DefaultQPS, kubecfg.DefaultBurst
	if *probeAddress != "" {
		l, err := net.Listen("tcp", *probeAddress)
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

// quantity parses a flag into q. The admission policy is derived from kops's rendering with the
// cluster's values, so kops passes them when they differ from its defaults.
func quantity(q *resource.Quantity) func(string) error {
	return func(v string) error {
		parsed, err := resource.ParseQuantity(v)
		if err != nil {
			return err
		}
		*q = parsed
		return nil
	}
}
