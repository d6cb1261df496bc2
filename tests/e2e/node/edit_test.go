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

package node

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// editCluster changes the stored cluster the way a user does, with `kops edit cluster`: the
// editor (KOPS_EDITOR) is a script that writes the document edit made of what `kops get clusters
// -o yaml` printed, so kops validates and stores it exactly as it would a hand edit. edit gets
// the Cluster document as a generic map, to set any field by its JSON path.
func (f *kopsFlow) editCluster(t testing.TB, edit func(doc map[string]any)) {
	t.Helper()
	f.editDocument(t, []string{"get", "clusters", cluster.Name, "-o", "yaml"}, []string{"edit", "cluster"}, edit)
}

// editInstanceGroup changes an instance group with `kops edit instancegroup`, as editCluster does.
func (f *kopsFlow) editInstanceGroup(t testing.TB, name string, edit func(doc map[string]any)) {
	t.Helper()
	f.editDocument(t, []string{"get", "instancegroups", name, "-o", "yaml"}, []string{"edit", "instancegroup", name}, edit)
}

func (f *kopsFlow) editDocument(t testing.TB, get, editArgs []string, edit func(doc map[string]any)) {
	t.Helper()
	r := f.must(t, "kops", get...)
	doc := map[string]any{}
	require.NoError(t, yaml.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
	edit(doc)
	edited, err := yaml.Marshal(doc)
	require.NoError(t, err)
	dir := t.TempDir()
	file := filepath.Join(dir, "edited.yaml")
	require.NoError(t, os.WriteFile(file, edited, 0o644))
	editor := filepath.Join(dir, "editor.sh")
	require.NoError(t, os.WriteFile(editor, []byte(fmt.Sprintf("#!/bin/sh\nexec cp %q \"$1\"\n", file)), 0o755))
	env := f.env
	f.env = append(append([]string(nil), env...), "KOPS_EDITOR="+editor)
	defer func() { f.env = env }()
	f.must(t, "kops", editArgs...)
}

// setKubeDNS sets (or, with a nil value, removes) a field of spec.kubeDNS.
func setKubeDNS(doc map[string]any, field string, value any) {
	spec, _ := doc["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		doc["spec"] = spec
	}
	dns, _ := spec["kubeDNS"].(map[string]any)
	if dns == nil {
		dns = map[string]any{}
		spec["kubeDNS"] = dns
	}
	if value == nil {
		delete(dns, field)
		return
	}
	dns[field] = value
}

// setFeatureFlags makes the following kops commands run with these flags (KOPS_FEATURE_FLAGS).
func (f *kopsFlow) setFeatureFlags(flags string) {
	env := make([]string, 0, len(f.env))
	for _, e := range f.env {
		if !strings.HasPrefix(e, "KOPS_FEATURE_FLAGS=") {
			env = append(env, e)
		}
	}
	f.env = append(env, "KOPS_FEATURE_FLAGS="+flags)
}
