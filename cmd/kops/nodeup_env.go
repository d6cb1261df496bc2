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
