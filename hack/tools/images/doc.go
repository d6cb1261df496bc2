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

// Command images builds an operator into an OCI image tarball, offline: a static Go binary in one
// layer on an empty base, run as 65532:65532, labelled with the source revision and version.
//
// The image's name and tag are read from the channel's package manifest, so the tarball is exactly
// the image the channel deploys. Usage (from the repository root, see `make images`):
//
//	go -C hack/tools/images run . --source-dir "$PWD" --channel channels/stable \
//	    --package operator.coredns.addons.x-k8s.io --out _output/images ./cmd/coredns-operator
//
// `make images` runs it for every operator `go run ./hack/operators` lists.
//
// It prints "<name:tag> <digest> <file>", and its progress on stderr.
package main
