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

// Package addonapi is what an addon's folder (pkg/addons/<name>/kopsmodel) gives kops's addon
// builders (pkg/model/addons): its line of the operator registry (Operator), the custom resource
// kops writes for it (Instructions), its built-in addon (BuiltIn) or a builder of its own
// (Builder), and the helpers they are built with. It sits below both, so that an addon's folder
// and the builders that list it do not import each other.
package addonapi
