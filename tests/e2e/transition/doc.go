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

// Package transition switches a cluster between built-in CoreDNS, CoreDNS through its operator
// (server-side) and the CoreDNS object expanded by kops (client-side) on a real API server, the way
// a user does: kops edit cluster (kubeDNS.operatorMode), kops update cluster, then channels apply.
package transition
