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

package main

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
)

// checkChannel is run on a cluster before create or edit stores it: a relative file:// channel is
// made absolute against the working directory (and the user told so), and the channel must read and
// parse, with its package manifests, so that a bad channel is refused now rather than at update.
func (f *Factory) checkChannel(c *kops.Cluster) field.ErrorList {
	path := field.NewPath("spec", "channel")
	location := c.Spec.Channel
	if location == "" {
		location = kops.DefaultChannel
	}
	workDir, err := os.Getwd()
	if err != nil {
		return field.ErrorList{field.InternalError(path, fmt.Errorf("finding the working directory: %w", err))}
	}
	resolved, err := channels.Resolve(location, workDir)
	if err == nil {
		err = channels.Verify(resolved, f.Paths)
	}
	if err != nil {
		return field.ErrorList{field.Invalid(path, c.Spec.Channel, err.Error())}
	}
	if c.Spec.Channel != "" && resolved != c.Spec.Channel {
		warnf(f.ErrOut, "Channel %s stored as %s\n", c.Spec.Channel, resolved)
		c.Spec.Channel = resolved
	}
	return nil
}
