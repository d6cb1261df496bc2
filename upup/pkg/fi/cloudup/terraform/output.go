package terraform

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// MainFile is the terraform file the target writes below --out; data files go to DataDir.
const (
	MainFile = "kubernetes.tf"
	DataDir  = "data"
)

// The provider kubernetes.tf asks for: launch templates' metadata_options.http_protocol_ipv6 and
// the other arguments we write exist in every 5.x release.
const (
	awsProviderSource  = "hashicorp/aws"
	awsProviderVersion = ">= 5.0.0"
	terraformVersion   = ">= 0.15.0"
)

// Files returns what goes below --out, by slash-separated path: kubernetes.tf and every data
// file. The same tasks always give the same bytes. The references are checked first: each must
// name a rendered resource or a data file, and each data file must be read (Verify checks the
// same by parsing the output; this check needs no parsing, so it costs nothing at 200 groups).
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

// checkReferences returns every dangling reference and unread data file at once.
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

// mainFile writes locals and outputs (cluster_name, region and what tasks added, each once as a
// local and once as an output, sorted by name) and the provider, then every resource sorted by type
// and name, then the terraform block with the provider requirement, as kops lays kubernetes.tf out.
func (t *Target) mainFile() []byte {
	f := &hclFile{}
	root := f.body()
	header := map[string]tokens{}
	if t.opts.ClusterName != "" {
		header["cluster_name"] = stringTokens(t.opts.ClusterName)
	}
	if t.opts.Region != "" {
		header["region"] = stringTokens(t.opts.Region)
	}
	for name, l := range t.outputs {
		header[name] = l.tokens
	}
	for name, items := range t.outputLists {
		sorted := append([]*Literal(nil), items...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].expr < sorted[b].expr })
		elems := make([]tokens, len(sorted))
		for i, l := range sorted {
			elems[i] = l.tokens
		}
		header[name] = tupleTokens(elems)
	}
	if len(header) > 0 {
		names := make([]string, 0, len(header))
		for n := range header {
			names = append(names, n)
		}
		sort.Strings(names)
		root.block("locals", nil, func(locals hclBody) {
			for _, name := range names {
				locals.attribute(name, header[name])
			}
		})
		for _, name := range names {
			root.newline()
			root.block("output", []string{name}, func(out hclBody) { out.attribute("value", header[name]) })
		}
		root.newline()
	}
	root.block("provider", []string{"aws"}, func(provider hclBody) {
		if t.opts.Region != "" {
			provider.attribute("region", stringTokens(t.opts.Region))
		}
	})

	keys := make([]string, 0, len(t.resources))
	for k := range t.resources {
		keys = append(keys, k)
	}
	// Data sources first, then resources, each sorted by type and name.
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
		root.newline()
		root.block(r.block, []string{r.resourceType, r.name}, func(b hclBody) { writeItems(b, r.items) })
	}

	root.newline()
	root.block("terraform", nil, func(tf hclBody) {
		tf.attribute("required_version", stringTokens(terraformVersion))
		tf.block("required_providers", nil, func(rp hclBody) {
			rp.attribute("aws", objectTokens([]string{"source", "version"},
				[]tokens{stringTokens(awsProviderSource), stringTokens(awsProviderVersion)}))
		})
	})
	return f.bytes()
}
