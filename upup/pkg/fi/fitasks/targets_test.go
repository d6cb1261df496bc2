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

package fitasks

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
)

const (
	channelLoc = "addons/bootstrap-channel.yaml"
	corednsLoc = "addons/coredns.addons.k8s.io/k8s-1.12.yaml"
)

func addonFiles(corednsImage string) []fi.Task {
	coredns := &ManagedFile{
		Name:     corednsLoc,
		Location: corednsLoc,
		Contents: []byte("kind: Deployment\nmetadata:\n  name: coredns\nspec:\n  image: " + corednsImage + "\n"),
	}
	return []fi.Task{
		&ManagedFile{
			Name:     channelLoc,
			Location: channelLoc,
			Contents: []byte("kind: Addons\n"),
			Deps:     []fi.TaskKey{coredns.Key()},
		},
		coredns,
	}
}

func run(t *testing.T, c *fi.Context, target fi.Target, tasks []fi.Task) string {
	t.Helper()
	graph, err := fi.BuildGraph(tasks)
	require.NoError(t, err)
	_, err = fi.Run(context.Background(), graph, c, target, fi.RunOptions{})
	require.NoError(t, err)
	var out strings.Builder
	switch tt := target.(type) {
	case *fi.DryRunTarget:
		require.NoError(t, tt.WriteReport(&out))
	case *fi.DirectTarget:
		require.NoError(t, tt.WriteReport(&out))
	}
	return out.String()
}

func TestDryRunReportForManagedFiles(t *testing.T) {
	oldCoreDNS := "kind: Deployment\nmetadata:\n  name: coredns\nspec:\n  image: coredns:1.11\n"
	tests := []struct {
		name     string
		existing map[string]string
		want     string
	}{
		{
			name:     "create one, modify one",
			existing: map[string]string{corednsLoc: oldCoreDNS},
			want: `Will create resources:
  ManagedFile/addons/bootstrap-channel.yaml
  	Location            	addons/bootstrap-channel.yaml
  	Contents            	13 bytes, sha256 1d4e28cfbd24

Will modify resources:
  ManagedFile/addons/coredns.addons.k8s.io/k8s-1.12.yaml
  	Contents            	71 bytes, sha256 8e4bdf2fe67e -> 71 bytes, sha256 5831b0dc34f0
  	    --- addons/coredns.addons.k8s.io/k8s-1.12.yaml (current)
  	    +++ addons/coredns.addons.k8s.io/k8s-1.12.yaml (desired)
  	    @@ -2,4 +2,4 @@
  	     metadata:
  	       name: coredns
  	     spec:
  	    -  image: coredns:1.11
  	    +  image: coredns:1.12

Must specify --yes to apply changes
`,
		},
		{
			name: "nothing to change",
			existing: map[string]string{
				channelLoc: "kind: Addons\n",
				corednsLoc: strings.Replace(oldCoreDNS, "1.11", "1.12", 1),
			},
			want: "No changes need to be applied\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mem := memContext(t, tt.existing)
			writesBefore, _ := mem.Stats()
			got := run(t, c, &fi.DryRunTarget{}, addonFiles("coredns:1.12"))
			assert.Equal(t, tt.want, got)
			writes, removes := mem.Stats()
			assert.Equal(t, writesBefore, writes, "a dry run writes nothing")
			assert.Zero(t, removes)
		})
	}
}

func TestDirectTargetAppliesOnceThenNothing(t *testing.T) {
	c, mem := memContext(t, nil)

	first := run(t, c, &fi.DirectTarget{}, addonFiles("coredns:1.12"))
	assert.Equal(t, "Created resources:\n"+
		"  ManagedFile/addons/bootstrap-channel.yaml\n"+
		"  \tLocation            \taddons/bootstrap-channel.yaml\n"+
		"  \tContents            \t13 bytes, sha256 1d4e28cfbd24\n\n"+
		"  ManagedFile/addons/coredns.addons.k8s.io/k8s-1.12.yaml\n"+
		"  \tLocation            \taddons/coredns.addons.k8s.io/k8s-1.12.yaml\n"+
		"  \tContents            \t71 bytes, sha256 5831b0dc34f0\n\n", first)
	writes, _ := mem.Stats()
	require.Equal(t, 2, writes)
	data, err := c.ConfigBase.Join(corednsLoc).ReadFile()
	require.NoError(t, err)
	assert.Contains(t, string(data), "image: coredns:1.12")

	second := run(t, c, &fi.DirectTarget{}, addonFiles("coredns:1.12"))
	assert.Equal(t, "No changes need to be applied\n", second)
	writesAfter, removes := mem.Stats()
	assert.Equal(t, writes, writesAfter, "second run must not write")
	assert.Zero(t, removes)

	third := run(t, c, &fi.DirectTarget{}, addonFiles("coredns:1.13"))
	assert.True(t, strings.HasPrefix(third, "Modified resources:\n  ManagedFile/addons/coredns.addons.k8s.io/k8s-1.12.yaml\n"), third)
	assert.Contains(t, third, "+  image: coredns:1.13")
	writesAfter, _ = mem.Stats()
	assert.Equal(t, writes+1, writesAfter, "only the changed file is rewritten")
}
