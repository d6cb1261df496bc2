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

// Package corefile reads a CoreDNS Corefile exactly as CoreDNS groups it (CoreDNS parses with its
// fork of Caddy's caddyfile: words, server blocks, directives, snippets) and checks what the
// plugins it names may reach: files on the pod's disk, the pod's environment and credentials,
// endpoints that would receive them ([Check], the table in reach.go).
//
// It is a checker, not a loader: it never reads a file, never looks at the environment, and its
// work is bounded by the size of its input whatever the snippets do.
package corefile
