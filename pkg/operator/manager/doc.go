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

// Package manager is the runtime every kops addon operator runs on: it reconciles the one custom
// resource into the managed objects kops would render for it (Addon) and reports their health on
// its status.
//
// It uses plain client-go rather than controller-runtime. Every read is one object by name
// (fieldSelector metadata.name, the only list or watch Kubernetes authorizes by resourceNames),
// with no unscoped fallback read path. Everything goes through the dynamic client, with its own
// lease election and event sink, because client-go's typed clientset, which its informer factory,
// leader election and event sink link, makes the binary much larger (docs/performance.md).
//
// Objects are written with forced server-side apply under the operator's field manager, so it takes
// over the fields of kops's built-in addon on handover.
package manager
