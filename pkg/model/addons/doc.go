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

// Package addons builds the addons that `kops update cluster` writes under <configBase>/addons and
// the bootstrap channel that lists them for `channels apply`. It holds the registry (Operators,
// BuildersFor), which lists each addon's folder (pkg/addons/<name>/kopsmodel), and the builders
// every operator and built-in addon goes through; an addon's own code lives in its folder.
package addons
