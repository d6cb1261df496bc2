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

// Package s3store is the s3:// state store: a vfs.Path per object of a bucket, in kops's layout, on
// the AWS SDK for Go v2 (its default credential chain and region, its partitions and endpoints,
// FIPS and dual-stack, its retries). It is apart from util/pkg/vfs so that only the commands that
// read s3:// stores (kops, channels) link the SDK, and hand New's store to their vfs.Context at the
// cmd edge. Nothing of the SDK runs until a command first uses an s3:// path.
package s3store
