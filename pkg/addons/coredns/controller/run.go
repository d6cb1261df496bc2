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

package controller

import (
	"context"

	"k8s.io/client-go/rest"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/manager"
)

// Options are the operator's settings: every operator's, and the cluster's facts.
type Options struct {
	manager.Options
	Facts Facts
}

func DefaultOptions() Options {
	return Options{Options: manager.DefaultOptions(coredns.Descriptor()), Facts: DefaultFacts()}
}

// Run runs the operator until ctx ends (it releases its lease and returns nil) or it loses its
// lease (an error: another replica is in charge and this process should restart).
func Run(ctx context.Context, cfg *rest.Config, opts Options) error {
	return manager.Run(ctx, cfg, opts.Options, Addon(opts.Facts))
}
