package app

import (
	"flag"
	"fmt"

	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/operators/coredns"
)

// Command is the operator's command line, parsed.
type Command struct {
	Options
	// Kubeconfig is the kubeconfig file; empty means the in-cluster service account.
	Kubeconfig string
	// ProbeAddress is where /healthz and /readyz are served; empty serves none.
	ProbeAddress string
}

// ParseFlags parses the operator's arguments (klog's flags included), as the binary does. It
// reads nothing else: the host name default of the identity is the binary's business.
func ParseFlags(args []string) (Command, error) {
	cmd := Command{Options: DefaultOptions(), ProbeAddress: ":8081"}
	opts := &cmd.Options
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
	fs.StringVar(&cmd.ProbeAddress, "health-probe-bind-address", cmd.ProbeAddress, "address serving /healthz and /readyz (empty: none)")
	// kops renders the cluster's facts into the operator's Deployment: an argument needs no right
	// to read anything, and a change of the facts rolls the operator out, so it never renders with
	// stale facts.
	fs.Func(coredns.FactsFlag, "the cluster's spec.kubeDNS facts CoreDNS is rendered with, as JSON (cpuRequest, memoryRequest, memoryLimit, tolerations, affinity, podAnnotations, autoscalerImage); kops sets it, a field left out keeps kops's default", func(v string) error {
		f, err := coredns.ParseFacts(v)
		if err != nil {
			return err
		}
		opts.Facts = f
		return nil
	})
	fs.StringVar(&cmd.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: the in-cluster service account)")
	if err := fs.Parse(args); err != nil {
		return Command{}, err
	}
	if *watchNamespace != corednsoperator.WatchNamespace {
		return Command{}, fmt.Errorf("--watch-namespace=%s: the operator manages CoreDNS in %s only", *watchNamespace, corednsoperator.WatchNamespace)
	}
	if fs.NArg() > 0 {
		return Command{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return cmd, nil
}
