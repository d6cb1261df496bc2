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

package addons

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// fixed is a Builder that returns the addons it is given.
type fixed struct {
	owns, packages []string
	addons         []*Addon
	err            error
}

func (f fixed) Owns() []string                            { return f.owns }
func (f fixed) Packages(*model.KopsModelContext) []string { return f.packages }
func (f fixed) Addons(*model.KopsModelContext) ([]*Addon, error) {
	return f.addons, f.err
}

// labelled is a one-object manifest finished for addon.
func labelled(addon, name string) []byte {
	return []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  labels:\n    addon.kops.k8s.io/name: " + addon + "\n    app.kubernetes.io/managed-by: kops\n")
}

func tasksByKey(t *testing.T, c *fi.ModelBuilderContext) map[string]fi.Task {
	out := map[string]fi.Task{}
	for _, task := range c.Tasks() {
		out[task.Key().String()] = task
	}
	return out
}

func TestBootstrapChannelBuilder(t *testing.T) {
	b := &BootstrapChannelBuilder{Context: &model.KopsModelContext{}, Builders: []Builder{
		fixed{owns: []string{"b.example.com", "gone.example.com"}, addons: []*Addon{addonapi.NewAddon("b.example.com", "v1", labelled("b.example.com", "b"))}},
		fixed{owns: []string{"a.example.com"}, addons: []*Addon{addonapi.NewAddon("a.example.com", "v2", labelled("a.example.com", "a"))}},
	}}
	c := &fi.ModelBuilderContext{}
	require.NoError(t, b.Build(c))
	tasks := tasksByKey(t, c)
	require.Len(t, tasks, 4)

	channelTask := tasks["ManagedFile/addons/bootstrap-channel.yaml"].(*fitasks.ManagedFile)
	channel, err := channelsapi.ParseAddons(channelTask.Contents)
	require.NoError(t, err)
	require.Len(t, channel.Spec.Addons, 2)
	assert.Equal(t, "b.example.com", channel.Spec.Addons[0].Name, "the order of the builders")
	assert.Equal(t, "a.example.com", channel.Spec.Addons[1].Name)
	assert.Equal(t, "a.example.com/v2.yaml", channel.Spec.Addons[1].Manifest)
	assert.Equal(t, channelsapi.ManifestHash(labelled("a.example.com", "a")), channel.Spec.Addons[1].ManifestHash)
	assert.ElementsMatch(t, []fi.TaskKey{
		{Kind: "ManagedFile", Name: "addons/b.example.com/v1.yaml"},
		{Kind: "ManagedFile", Name: "addons/a.example.com/v2.yaml"},
	}, channelTask.Dependencies(), "the channel waits for every manifest")

	stale := tasks["StaleFiles/addons"].(*fitasks.StaleFiles)
	assert.Equal(t, []string{"addons/b.example.com", "addons/gone.example.com", "addons/a.example.com"}, stale.Directories)
	assert.Equal(t, []string{"addons/b.example.com/v1.yaml", "addons/a.example.com/v2.yaml"}, stale.Keep)
	assert.Equal(t, []fi.TaskKey{channelTask.Key()}, stale.Dependencies(), "stale manifests go only after the new channel is written")
}

func TestBootstrapChannelBuilderErrors(t *testing.T) {
	cases := []struct {
		name     string
		builders []Builder
		want     string
	}{
		{"builder fails", []Builder{fixed{err: errors.New("no package")}}, "no package"},
		{"same addon twice", []Builder{
			fixed{owns: []string{"a.example.com"}, addons: []*Addon{addonapi.NewAddon("a.example.com", "v1", labelled("a.example.com", "a"))}},
			fixed{owns: []string{"a.example.com"}, addons: []*Addon{addonapi.NewAddon("a.example.com", "v2", labelled("a.example.com", "b"))}},
		}, `addon "a.example.com" is built twice`},
		{"an addon its builder does not own", []Builder{
			fixed{owns: []string{"a.example.com"}, addons: []*Addon{addonapi.NewAddon("b.example.com", "v1", labelled("b.example.com", "b"))}},
		}, `addon "b.example.com" is built by a builder (addons.fixed) whose Owns() does not name it`},
		{"an addon another builder owns", []Builder{
			fixed{owns: []string{"a.example.com"}},
			fixed{owns: []string{"b.example.com"}, addons: []*Addon{addonapi.NewAddon("a.example.com", "v1", labelled("a.example.com", "a"))}},
		}, `addon "a.example.com" is built by a builder (addons.fixed) whose Owns() does not name it`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &BootstrapChannelBuilder{Context: &model.KopsModelContext{}, Builders: tc.builders}
			assert.ErrorContains(t, b.Build(&fi.ModelBuilderContext{}), tc.want)
		})
	}
}

// The packages to load are what the builders declare, in builder order, each once.
func TestRequiredPackagesComeFromBuilders(t *testing.T) {
	builders := []Builder{fixed{packages: []string{"b", "a"}}, fixed{}, fixed{packages: []string{"a", "c"}}}
	assert.Equal(t, []string{"b", "a", "c"}, RequiredPackages(&model.KopsModelContext{}, builders))
	assert.Empty(t, RequiredPackages(&model.KopsModelContext{}, []Builder{fixed{}}))
}
