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

package channels

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/util/pkg/vfs"
)

// Resolve returns what to store in spec.channel for a channel a user typed: a relative file://
// URL is made absolute against workDir so a later run elsewhere still finds it; anything else
// Load accepts is returned unchanged.
func Resolve(location, workDir string) (string, error) {
	switch location {
	case Stable, Alpha, None:
		return location, nil
	}
	scheme, rest, ok := strings.Cut(location, "://")
	if !ok || !strings.EqualFold(scheme, "file") {
		if _, err := channelPath(location, workDir, vfs.NewContext(&vfs.MemFS{})); err != nil {
			return "", err
		}
		return location, nil
	}
	if workDir == "" || !filepath.IsAbs(workDir) {
		return "", fmt.Errorf("channel %q: resolving a file:// URL needs an absolute working directory, not %q", location, workDir)
	}
	if filepath.IsAbs(filepath.FromSlash(rest)) {
		return location, nil
	}
	abs, err := absoluteFile(location, rest, workDir)
	if err != nil {
		return "", err
	}
	return "file://" + filepath.ToSlash(abs), nil
}

// Verify reads the channel and every package manifest it has, so that a bad channel is refused
// when it is set rather than when the cluster is updated.
func Verify(location string, paths *vfs.Context) error {
	l, err := Load(location, paths)
	if err != nil {
		return err
	}
	for i, p := range l.channel.Spec.Packages {
		file := manifestPath(p.Name, p.Version)
		data, err := l.readPackageFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		where := fmt.Sprintf("channel %q: spec.packages[%d] (%s %s): %s", l.name, i, p.Name, p.Version, file)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := checkManifest(data); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	return nil
}

func checkManifest(data []byte) error {
	docs, err := kubemanifest.Split(data)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return errors.New("the manifest holds no objects")
	}
	for i, doc := range docs {
		// Read as kops reads the package: case-sensitive field names, string apiVersion and kind.
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return fmt.Errorf("document %d: %w", i+1, err)
		}
		if obj.GetAPIVersion() == "" || obj.GetKind() == "" {
			return fmt.Errorf("document %d: apiVersion and kind are required", i+1)
		}
	}
	return nil
}
