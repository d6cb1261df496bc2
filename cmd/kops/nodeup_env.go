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
	"fmt"
	"strings"

	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/nodesetup"
)

// nodeupFromEnv reads where machines download nodeup from the variables kops's own bootstrap
// script names them by: NODEUP_URL_<ARCH> (comma-separated mirrors) and NODEUP_HASH_<ARCH>
// (its SHA-256), for AMD64 and ARM64. Neither set is nil; one without the other is an error.
func nodeupFromEnv(env map[string]string) (model.NodeupSource, error) {
	src := model.NodeupSource{}
	for _, arch := range []string{"amd64", "arm64"} {
		urlVar, hashVar := "NODEUP_URL_"+strings.ToUpper(arch), "NODEUP_HASH_"+strings.ToUpper(arch)
		urls, hash := env[urlVar], env[hashVar]
		switch {
		case urls == "" && hash == "":
			continue
		case urls == "" || hash == "":
			return nil, fmt.Errorf("%s and %s go together: set both or neither", urlVar, hashVar)
		}
		src[arch] = model.NodeupBinary{URLs: strings.Split(urls, ","), SHA256: hash}
	}
	if len(src) == 0 {
		return nil, nil
	}
	if err := nodesetup.ValidateNodeupSource(src, "NODEUP_URL_<ARCH>, NODEUP_HASH_<ARCH>"); err != nil {
		return nil, err
	}
	return src, nil
}
