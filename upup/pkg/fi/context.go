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
