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

package kopscodecs

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// maxAliasedNodes bounds what YAML aliases may add to a document: every later step walks the
// expanded document, and yaml.v3's own check runs last, after a "billion laughs" has done its harm.
const maxAliasedNodes = 1000

// checkAliases refuses a document whose aliases expand past maxAliasedNodes or contain themselves.
func checkAliases(root *yaml.Node) error {
	a := aliasCounter{sizes: map[*yaml.Node]int{}}
	if _, err := a.size(root); err != nil {
		return err
	}
	if a.added > maxAliasedNodes {
		return fmt.Errorf("YAML aliases expand the document by more than %d values; write the values out", maxAliasedNodes)
	}
	return nil
}

type aliasCounter struct {
	// sizes holds each node's expanded size, or inProgress while its children are walked.
	sizes map[*yaml.Node]int
	// added is capped just above the limit so sums cannot overflow.
	added int
}

const inProgress = -1

func (a *aliasCounter) size(n *yaml.Node) (int, error) {
	if size, seen := a.sizes[n]; seen {
		return size, nil
	}
	a.sizes[n] = inProgress
	size := 1
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		if a.sizes[n.Alias] == inProgress {
			return 0, fmt.Errorf("line %d: YAML alias *%s is inside the value it refers to", n.Line, n.Value)
		}
		target, err := a.size(n.Alias)
		if err != nil {
			return 0, err
		}
		a.added = min(a.added+target, maxAliasedNodes+1)
		size = target
	}
	for _, c := range n.Content {
		s, err := a.size(c)
		if err != nil {
			return 0, err
		}
		size = min(size+s, maxAliasedNodes+1)
	}
	a.sizes[n] = size
	return size, nil
}
