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

// Package crdupgrade applies today's operator addons over a cluster that holds the CoreDNS CRD
// and object an earlier kops made (spec.patches, no spec.image): the object ends up with the image
// and without the patch, and a value the new CRD refuses that someone else set stops the apply
// with the field to fix, until an admin removes the object as docs/coredns-object.md says.
package crdupgrade
