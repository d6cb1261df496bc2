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
	"errors"
	"fmt"
	"io"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

// Factory carries what every command needs: the parsed feature flags, the environment, the
// terminal, and the global flags. It is built once per command line.
type Factory struct {
	Flags  featureflag.Set
	Env    map[string]string
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Paths resolves --state and the paths a cluster names; only tests give it a memfs:// store.
	Paths *vfs.Context

	// Set by the root command's persistent flags.
	State       string
	ClusterName string

	warned map[string]bool
}

// Clientset opens the state store named by --state or KOPS_STATE_STORE.
func (f *Factory) Clientset() (*client.Clientset, error) {
	if f.State == "" {
		return nil, errors.New("the state store is not set: use --state or set KOPS_STATE_STORE, e.g. --state file:///srv/kops-state")
	}
	return client.Open(f.Paths, f.State)
}

// Cluster resolves the cluster name from the first argument, --name or KOPS_CLUSTER_NAME, and
// checks it: a name is never a path.
func (f *Factory) Cluster(args []string) (string, error) {
	var name string
	switch {
	case len(args) > 0 && f.ClusterName != "" && args[0] != f.ClusterName:
		return "", fmt.Errorf("the cluster name is given twice, as %q and --name %q", args[0], f.ClusterName)
	case len(args) > 0:
		name = args[0]
	case f.ClusterName != "":
		name = f.ClusterName
	default:
		return "", errors.New("no cluster name: give it as an argument, with --name, or in KOPS_CLUSTER_NAME")
	}
	if err := client.ValidateClusterName(name); err != nil {
		return "", err
	}
	return name, nil
}

// Warn prints each warning once per command, however often the same document is read.
func (f *Factory) Warn(warnings []kopscodecs.Warning) {
	if f.warned == nil {
		f.warned = map[string]bool{}
	}
	for _, w := range warnings {
		if s := w.String(); !f.warned[s] {
			f.warned[s] = true
			warnf(f.ErrOut, "W: %s\n", s)
		}
	}
}

// warnf writes a warning or a note to errOut. One that cannot be written is dropped: errOut is
// where the failure would be reported, so there is nowhere left to say it.
func warnf(errOut io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(errOut, format, args...)
}

// Editor is the user's editor command: KOPS_EDITOR, else EDITOR, else vi.
func (f *Factory) Editor() string {
	for _, k := range []string{"KOPS_EDITOR", "EDITOR"} {
		if v := f.Env[k]; v != "" {
			return v
		}
	}
	return "vi"
}

// readCluster reads a cluster and its instance groups, printing their warnings.
func (f *Factory) readCluster(clientset *client.Clientset, name string) (*kops.Cluster, []*kops.InstanceGroup, error) {
	cluster, warnings, err := clientset.GetCluster(name)
	f.Warn(warnings)
	if err != nil {
		return nil, nil, err
	}
	groups, warnings, err := clientset.ListInstanceGroups(name)
	f.Warn(warnings)
	if err != nil {
		return nil, nil, err
	}
	return cluster, groups, nil
}
