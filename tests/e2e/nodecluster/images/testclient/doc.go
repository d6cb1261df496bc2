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

// Command testclient is the one-node cluster's test client image (tests/e2e/nodecluster): one
// static binary, no shell, that the node tests run as a pod or exec into. Every result is one JSON
// object per line on standard output, so a test reads it from the pod's log or the exec's output.
//
//	testclient sleep                        wait until stopped (a pod to exec into)
//	testclient resolve NAME [--server A]    one lookup; exit 1 when it fails
//	testclient dns --name N[,N...] [--qps 20] [--duration 0] [--server A] [--listen :8080]
//	                                        look names up at a steady rate, count failures
//	testclient http --url U [--count 1]     GET U; exit 1 when any request gets no answer
//	testclient dial --addr HOST:PORT        open a TCP connection; exit 1 when it fails
//
// Without --server, lookups go to the nameservers of the pod's /etc/resolv.conf (kube-dns's
// ClusterIP under dnsPolicy ClusterFirst), with its search list; end a name with "." to skip the
// search list.
package main
