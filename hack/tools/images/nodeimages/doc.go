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

// Command nodeimages builds the images of the one-node cluster (tests/e2e/nodecluster, make
// cluster) offline, each as a one-layer image on an empty base in a tarball that
// `ctr images import` reads:
//
//   - the sandbox ("pause") image and the test client, static Go programs of tests/e2e, run as
//     65532:65532;
//   - CoreDNS, from a binary built by hack/build-test-node.sh, named as kops's manifests name it,
//     run as 65532:65532 with the file capability cap_net_bind_service=ep on /coredns, so that a
//     container that adds NET_BIND_SERVICE (and drops everything else) serves port 53 as non-root;
//   - metrics-server, from a binary built by hack/build-test-node.sh, named as kops's manifests name
//     it, run as 65532:65532 (kops's pod spec runs it as 1000:1000); it needs no capability, its
//     port 10250 being above 1024.
//
// Usage:
//
//	go -C hack/tools/images run ./nodeimages --e2e-dir tests/e2e --coredns-binary BIN \
//	    --metrics-server-binary BIN --out DIR --pause NAME --testclient NAME --coredns NAME \
//	    --metrics-server NAME
//
// It prints "<name> <digest> <file>" for each image. Timestamps are fixed, so an image's digest
// depends on its contents alone.
package main
