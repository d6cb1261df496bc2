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

package fi

import "k8s.io/kops/util/pkg/vfs"

// Context is the read-only environment handed to every Plan and Render call.
// It is passed explicitly rather than kept in package state so that several
// runs (tests, a dry run followed by an apply) can never see each other's
// settings. Tasks must not modify it; it is shared by concurrent tasks.
type Context struct {
	// ClusterName is the cluster being updated, for messages and for tasks
	// whose objects are named after the cluster.
	ClusterName string
	// ConfigBase is the cluster's directory in the state store
	// (<store>/<cluster>); task locations are relative to it.
	ConfigBase vfs.Path
}
