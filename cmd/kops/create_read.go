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
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

// fileSet is what the files of one `kops create -f` hold, grouped by the cluster they belong to.
type fileSet struct {
	clusters []*kopscodecs.Object
	groups   map[string][]*kopscodecs.Object
	sshKeys  map[string][]*kopscodecs.Object
	addons   []*kopscodecs.Object
}

// problems collects what is wrong with the input, each message naming its file, line and document
// where it has one, so that everything is reported at once.
type problems []string

func (p *problems) add(err error) {
	if err != nil {
		*p = append(*p, err.Error())
	}
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return errors.New(strings.Join(p, "\n"))
}

// at locates one field error in the document it concerns.
func at(doc *kopscodecs.Object, e *field.Error) error {
	return doc.FieldErrors(field.ErrorList{e})
}

// nameErrors locates what keeps name, the metadata.name of doc, from naming a file of the store.
func nameErrors(doc *kopscodecs.Object, name string) error {
	var errs field.ErrorList
	for _, p := range client.NameProblems(name) {
		errs = append(errs, field.Invalid(namePath, client.ShortName(name), p))
	}
	if len(errs) == 0 {
		return nil
	}
	return doc.FieldErrors(errs)
}

var (
	namePath         = field.NewPath("metadata", "name")
	clusterLabelPath = field.NewPath("metadata", "labels").Key(kops.LabelClusterName)
)

func readFiles(f *Factory, files []string) (*fileSet, error) {
	set := &fileSet{groups: map[string][]*kopscodecs.Object{}, sshKeys: map[string][]*kopscodecs.Object{}}
	var found problems
	for _, name := range files {
		data, err := readInput(f.In, name)
		if err != nil {
			return nil, err
		}
		source := name
		if name == "-" {
			source = "standard input"
		}
		objs, warnings, err := kopscodecs.Decode(source, data, true)
		f.Warn(warnings)
		if err != nil {
			found.add(err)
			continue
		}
		if len(objs) == 0 {
			found.add(fmt.Errorf("no objects found in %s: it holds no YAML document (give a Cluster, InstanceGroup or other object)", source))
			continue
		}
		for _, o := range objs {
			switch {
			case o.Cluster != nil:
				set.clusters = append(set.clusters, o)
			case o.InstanceGroup != nil:
				owner := o.InstanceGroup.Labels[kops.LabelClusterName]
				switch errs := validation.ValidateClusterReference(owner, clusterLabelPath); {
				case owner == "":
					found.add(at(o, field.Required(clusterLabelPath, "the cluster this group belongs to")))
				case len(errs) > 0:
					found.add(o.FieldErrors(errs))
				default:
					set.groups[owner] = append(set.groups[owner], o)
				}
			case o.SSHCredential != nil:
				if errs := validation.ValidateSSHCredential(o.SSHCredential); len(errs) > 0 {
					found.add(o.FieldErrors(errs))
					continue
				}
				owner := o.SSHCredential.Labels[kops.LabelClusterName]
				set.sshKeys[owner] = append(set.sshKeys[owner], o)
			default:
				set.addons = append(set.addons, o)
			}
		}
	}
	if err := found.err(); err != nil {
		return nil, err
	}
	return set, nil
}

// readInput reads a file given to -f or --add ("-" is standard input) through the one bounded
// read: a regular file, or a pipe such as `-f <(...)` (as kubectl takes), of at most
// vfs.MaxFileSize; a FIFO without a writer reads as empty instead of blocking the open, and a
// device is refused.
func readInput(stdin io.Reader, name string) ([]byte, error) {
	if name != "-" {
		data, err := vfs.ReadLocalFile(name, true)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		return data, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, vfs.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if len(data) > vfs.MaxFileSize {
		return nil, fmt.Errorf("reading standard input: more than %d MiB; kops documents are a few KiB", vfs.MaxFileSize>>20)
	}
	return data, nil
}
