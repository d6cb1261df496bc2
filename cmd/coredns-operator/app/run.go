package app

import (
	"context"

	"k8s.io/client-go/rest"

	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/operators/manager"
)

// Options are the operator's settings, from its flags: every operator's, and the cluster's facts.
type Options struct {
	manager.Options
	// Facts are the rendering's values the CoreDNS object does not carry.
	Facts Facts
}

// DefaultOptions are the flags' defaults.
func DefaultOptions() Options {
	return Options{Options: manager.DefaultOptions(corednsoperator.Descriptor()), Facts: DefaultFacts()}
}

// Run runs the operator until ctx ends (then it releases its lease and returns nil) or it loses
// its lease (an error: another replica is in charge, and this process should restart).
func Run(ctx context.Context, cfg *rest.Config, opts Options) error {
	return manager.Run(ctx, cfg, opts.Options, Addon(opts.Facts))
}
