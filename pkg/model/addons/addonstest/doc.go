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

// Package addonstest runs a throwaway operator through the registry as an entry of Operators is
// run: operatortest's DaemonSet operator as an addons.Operator, data only, and the bootstrap channel
// kops writes for a registry holding it. Only tests import it: the golden test pins that channel,
// and the e2e tests apply it with channels and attack the operator's confinement as its identity.
package addonstest
