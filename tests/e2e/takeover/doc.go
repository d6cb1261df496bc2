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

// Package takeover points our channels at a cluster kops's own channels populated: kops's CoreDNS
// objects and records, then ours, with the built-in addon and with the operator. Nothing is
// orphaned or doubled, the DNS Service keeps its address, no image is downgraded unless asked, and
// the records stay readable by kops.
package takeover
