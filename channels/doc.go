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

// Package channels holds kops's package channels, stable and alpha, with the package manifests
// they point to (packages/<name>/<version>/manifest.yaml). The files live here, where kops keeps
// them, so that `--channel file://channels/stable` run from the repository root reads the very
// files the binary embeds: there is one copy.
package channels
