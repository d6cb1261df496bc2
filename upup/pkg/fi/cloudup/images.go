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

package cloudup

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// ImageAsset is an image as the manifests name it and as pulled after spec.assets remapping, with
// kops's `kops get assets` keys.
type ImageAsset struct {
	Canonical string   `json:"canonical"`
	Download  string   `json:"download"`
	UsedBy    []string `json:"usedBy"`
}

// ListImages renders the addons as `kops update cluster` would, without and with spec.assets, so the
// list needs no upkeep.
func ListImages(clientset *client.Clientset, name string, flags featureflag.Set) ([]ImageAsset, []kopscodecs.Warning, error) {
	ctx, warnings, err := LoadModelContext(clientset, name, flags)
	if err != nil {
		return nil, warnings, err
	}
	remapped, err := renderedImages(ctx)
	if err != nil {
		return nil, warnings, err
	}
	unmapped := *ctx
	unmapped.Assets = nil
	original, err := renderedImages(&unmapped)
	if err != nil {
		return nil, warnings, err
	}
	if len(original) != len(remapped) {
		return nil, warnings, fmt.Errorf("remapping images changed the rendered objects: %d image fields without spec.assets, %d with", len(original), len(remapped))
	}
	byPair := map[[2]string]*ImageAsset{}
	for i, o := range original {
		r := remapped[i]
		if o.where != r.where {
			return nil, warnings, fmt.Errorf("remapping images changed the rendered objects: %s became %s", o.where, r.where)
		}
		key := [2]string{o.image, r.image}
		a := byPair[key]
		if a == nil {
			a = &ImageAsset{Canonical: o.image, Download: r.image}
			byPair[key] = a
		}
		a.UsedBy = append(a.UsedBy, o.where)
	}
	assets := make([]ImageAsset, 0, len(byPair))
	for _, a := range byPair {
		sort.Strings(a.UsedBy)
		assets = append(assets, *a)
	}
	sort.Slice(assets, func(i, j int) bool {
		if assets[i].Canonical != assets[j].Canonical {
			return assets[i].Canonical < assets[j].Canonical
		}
		return assets[i].Download < assets[j].Download
	})
	return assets, warnings, nil
}

type imageField struct {
	where string // file, object and field
	image string
}

func renderedImages(ctx *model.KopsModelContext) ([]imageField, error) {
	tasks, err := BuildTasks(ctx)
	if err != nil {
		return nil, err
	}
	files := []*fitasks.ManagedFile{}
	for _, t := range tasks {
		// The node files under igconfig/ are not manifests.
		if f, ok := t.(*fitasks.ManagedFile); ok && strings.HasPrefix(f.Location, "addons/") {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Location < files[j].Location })
	var fields []imageField
	for _, f := range files {
		uses, err := kubemanifest.Images(f.Contents)
		if err != nil {
			return nil, fmt.Errorf("reading images of %s: %w", f.Location, err)
		}
		for _, u := range uses {
			fields = append(fields, imageField{where: f.Location + " " + u.Object + " " + u.Field, image: u.Image})
		}
	}
	return fields, nil
}
