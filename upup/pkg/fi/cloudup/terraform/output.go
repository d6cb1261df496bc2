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

package terraform

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

const (
	MainFile = "kubernetes.tf"
	DataDir  = "data"
)

// The provider version: every argument written exists in all 5.x releases.
const (
	awsProviderSource  = "hashicorp/aws"
	awsProviderVersion = ">= 5.0.0"
	terraformVersion   = ">= 0.15.0"
)

// Files returns kubernetes.tf and the data files by path, deterministically, after checking every
// reference names a rendered resource or data file and every data file is read.
func (t *Target) Files() (map[string][]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.checkReferences(); err != nil {
		return nil, fmt.Errorf("rendered %s would be inconsistent (a bug in a task): %w", MainFile, err)
	}
	out := make(map[string][]byte, len(t.files)+1)
	for path, data := range t.files {
		out[path] = data
	}
	out[MainFile] = t.mainFile()
	return out, nil
}

func (t *Target) checkReferences() error {
	var problems []string
	read := map[string]bool{}
	refs := map[string][]*Literal{}
	for key, r := range t.resources {
		refs[key] = r.refs
	}
	for name, l := range t.outputs {
		refs["output."+name] = append(refs["output."+name], l)
	}
	for name, items := range t.outputLists {
		refs["output."+name] = append(refs["output."+name], items...)
	}
	for key, literals := range refs {
		for _, l := range literals {
			if l.refersTo != "" && !t.hasResource(l.refersTo) {
				problems = append(problems, fmt.Sprintf("%s: reference to %s, which is not defined", key, l.refersTo))
			}
			if l.file != "" {
				if _, ok := t.files[l.file]; !ok {
					problems = append(problems, fmt.Sprintf("%s: reads %s, which was not added", key, l.file))
				}
				read[l.file] = true
			}
		}
	}
	for path := range t.files {
		if !read[path] {
			problems = append(problems, fmt.Sprintf("%s is not read by any resource", path))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return errors.New(strings.Join(problems, "\n"))
}

func (t *Target) hasResource(key string) bool {
	_, ok := t.resources[key]
	return ok
}

// mainFile lays kubernetes.tf out as kops does: locals and outputs, the provider, data sources and
// resources sorted by type and name, then the terraform block.
func (t *Target) mainFile() []byte {
	f := hclwrite.NewEmptyFile()
	root := f.Body()
	header := map[string]hclwrite.Tokens{}
	if t.opts.ClusterName != "" {
		header["cluster_name"] = stringExpr(t.opts.ClusterName)
	}
	if t.opts.Region != "" {
		header["region"] = stringExpr(t.opts.Region)
	}
	for name, l := range t.outputs {
		header[name] = l.tokens
	}
	for name, items := range t.outputLists {
		sorted := append([]*Literal(nil), items...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].expr < sorted[b].expr })
		elems := make([]hclwrite.Tokens, len(sorted))
		for i, l := range sorted {
			elems[i] = cloneTokens(l.tokens) // TokensForTuple lays them out in place
		}
		header[name] = hclwrite.TokensForTuple(elems)
	}
	if len(header) > 0 {
		names := slices.Sorted(maps.Keys(header))
		locals := root.AppendNewBlock("locals", nil).Body()
		for _, name := range names {
			locals.SetAttributeRaw(name, cloneTokens(header[name]))
		}
		for _, name := range names {
			root.AppendNewline()
			root.AppendNewBlock("output", []string{name}).Body().SetAttributeRaw("value", cloneTokens(header[name]))
		}
		root.AppendNewline()
	}
	provider := root.AppendNewBlock("provider", []string{"aws"}).Body()
	if t.opts.Region != "" {
		provider.SetAttributeValue("region", cty.StringVal(t.opts.Region))
	}

	keys := make([]string, 0, len(t.resources))
	for k := range t.resources {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		ra, rb := t.resources[keys[a]], t.resources[keys[b]]
		if ra.block != rb.block {
			return ra.block == "data"
		}
		if ra.resourceType != rb.resourceType {
			return ra.resourceType < rb.resourceType
		}
		return ra.name < rb.name
	})
	for _, k := range keys {
		r := t.resources[k]
		root.AppendNewline()
		writeItems(root.AppendNewBlock(r.block, []string{r.resourceType, r.name}).Body(), r.items)
	}

	root.AppendNewline()
	tf := root.AppendNewBlock("terraform", nil).Body()
	tf.SetAttributeValue("required_version", cty.StringVal(terraformVersion))
	tf.AppendNewBlock("required_providers", nil).Body().SetAttributeValue("aws", cty.ObjectVal(map[string]cty.Value{
		"source":  cty.StringVal(awsProviderSource),
		"version": cty.StringVal(awsProviderVersion),
	}))
	return f.Bytes()
}
