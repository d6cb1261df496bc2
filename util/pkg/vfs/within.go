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

package vfs

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// Within says whether p is base or below it once symlinks are resolved (unmade folders through their
// nearest parent); memfs and local paths never are.
func Within(p, base Path) (bool, error) {
	lp, ok1 := p.(fsPath)
	lb, ok2 := base.(fsPath)
	if !ok1 || !ok2 {
		s, b := p.String(), strings.TrimSuffix(base.String(), "/")
		return s == b || strings.HasPrefix(s, b+"/"), nil
	}
	rp, err := resolve(lp.path())
	if err != nil {
		return false, err
	}
	rb, err := resolve(lb.path())
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(rb, rp)
	if err != nil {
		return false, nil
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))), nil
}

func resolve(name string) (string, error) {
	missing := ""
	for {
		real, err := filepath.EvalSymlinks(name)
		if err == nil {
			return filepath.Join(real, missing), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(name)
		if parent == name {
			return filepath.Join(name, missing), nil
		}
		missing = filepath.Join(filepath.Base(name), missing)
		name = parent
	}
}
