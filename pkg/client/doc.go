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

// Package client is the state store as a clientset, in kops's layout so either can read the other's:
//
//	<store>/<cluster>/config                   the Cluster
//	<store>/<cluster>/instancegroup/<name>     each InstanceGroup
//	<store>/<cluster>/clusteraddons/default    the addon objects, as one YAML stream
//	<store>/<cluster>/pki/ssh/public/admin/<id> each SSH public key (id: its MD5 fingerprint in hex)
//	<store>/.kops.vfs-lock                     the lock every create, update and delete holds
//
// Every method checks the names it takes, so a name never reaches the store as a path.
package client
