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

package manager

import (
	"flag"
	"fmt"

	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/operator"
)

type Command struct {
	Options
	// Kubeconfig empty means the in-cluster service account.
	Kubeconfig string
	// ProbeAddress serves /healthz and /readyz; empty serves none.
	ProbeAddress string

	watchNamespace string
}

// NewFlagSet returns the flags every operator of d has, klog's included, writing into cmd.
func NewFlagSet(d *operator.Descriptor, cmd *Command) *flag.FlagSet {
	*cmd = Command{Options: DefaultOptions(d), ProbeAddress: ":8081"}
	opts := &cmd.Options
	fs := flag.NewFlagSet(d.DeploymentName, flag.ContinueOnError)
	klog.InitFlags(fs)
	fs.StringVar(&opts.Namespace, "leader-election-namespace", opts.Namespace, "namespace the operator runs in; its leader-election lease is kept there")
	fs.StringVar(&opts.Namespace, "namespace", opts.Namespace, "same as --leader-election-namespace")
	fs.StringVar(&cmd.watchNamespace, "watch-namespace", d.WatchNamespace, "namespace of the "+d.CRD.Kind+" object; only "+d.WatchNamespace+", where the operator's rights are")
	fs.BoolVar(&opts.LeaderElect, "leader-elect", opts.LeaderElect, "reconcile only while holding the lease "+d.LeaseName)
	fs.StringVar(&opts.Identity, "leader-election-identity", "", "this replica's name in the lease (default: the host name)")
	fs.DurationVar(&opts.LeaseDuration, "leader-election-lease-duration", opts.LeaseDuration, "how long a lease is valid without renewal")
	fs.DurationVar(&opts.RenewDeadline, "leader-election-renew-deadline", opts.RenewDeadline, "how long the leader tries to renew before giving up")
	fs.DurationVar(&opts.RetryPeriod, "leader-election-retry-period", opts.RetryPeriod, "how often to try to take or renew the lease")
	fs.StringVar(&cmd.ProbeAddress, "health-probe-bind-address", cmd.ProbeAddress, "address serving /healthz and /readyz (empty: none)")
	fs.StringVar(&cmd.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: the in-cluster service account)")
	return fs
}

// Parse refuses another watch namespace (the operator's rights are in one) and positional arguments.
func (cmd *Command) Parse(d *operator.Descriptor, fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cmd.watchNamespace != d.WatchNamespace {
		return fmt.Errorf("--watch-namespace=%s: the operator manages %s in %s only", cmd.watchNamespace, d.Subject, d.WatchNamespace)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
}
