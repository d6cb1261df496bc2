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

// Package docs finds the command lines and links of the repository's documentation (README.md and
// docs/*.md), so that tests can hold them to the code: each kops and channels command line parses
// against its command tree (cmd/kops, cmd/channels tests), each make target and script exists, and
// each relative link resolves (this package's tests); and it renders the command reference under
// docs/cli from the command trees, which those packages' tests hold to the pages.
package docs
