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

package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestImageProblem(t *testing.T) {
	for _, ref := range []string{
		"coredns",
		"coredns/coredns",
		"coredns/coredns:1.12.0",
		"registry.k8s.io/coredns/coredns:v1.12.0",
		"localhost/coredns",
		"localhost:5000/coredns:latest",
		"10.0.0.1:5000/a/b/c",
		"[fd00::1]:5000/coredns",
		"my-registry.example.com/team__x/core.dns-x:V1_2",
		"coredns/coredns@sha256:" + sha,
		"coredns/coredns:v1@sha256:" + sha,
	} {
		assert.Empty(t, imageProblem(ref), ref)
	}
	for ref, fragment := range map[string]string{
		"https://registry.k8s.io/coredns":            "scheme",
		"coredns/coredns :v1":                        "whitespace",
		"CoreDNS":                                    "path component",
		"registry.k8s.io/CoreDNS/coredns":            "path component",
		"registry.k8s.io//coredns":                   "empty path component",
		"coredns/":                                   "empty path component",
		"coredns:":                                   "tag",
		"coredns:v1/x":                               "port",
		"coredns:bad!tag":                            "tag",
		"coredns@sha256:short":                       "digest",
		"reg_istry.example.com/coredns":              "host",
		"registry.example.com:http/coredns":          "port",
		"[fd00::1/coredns":                           "registry host",
		"[10.0.0.1]:5000/coredns":                    "IPv6",
		"[fd00::1]x/coredns":                         "registry host",
		"coredns@sha256:" + long(32):                 "invalid checksum digest length",
		long(300) + ":v1":                            "must not be more than 255 characters",
		"registry.example.com:/coredns":              "port",
		"-registry.example.com/coredns":              "host",
		"registry.example.com/coredns-":              "path component",
		"registry.example.com/coredns:" + long(129):  "tag",
		"registry.example.com/coredns:.leading.dots": "tag",
	} {
		assert.Contains(t, imageProblem(ref), fragment, ref)
	}
}

func TestRegistryProblem(t *testing.T) {
	for _, loc := range []string{
		"registry.example.com",
		"registry.example.com:5000",
		"registry.example.com/mirror",
		"registry.example.com:5000/mirror/k8s",
		"10.0.0.1:5000",
		"[fd00::1]:5000/x",
		"localhost",
		"registry.example.com/", // the remapper drops a trailing slash
	} {
		assert.Empty(t, registryProblem(loc), loc)
	}
	for loc, fragment := range map[string]string{
		"https://registry.example.com": "scheme",
		"registry.example.com//x":      "empty path component",
		"mirror":                       "would be read as a Docker Hub namespace",
		"registry example.com":         "whitespace",
		"registry.example.com:0":       "port",
		"registry.example.com:65536":   "port",
		"registry..example.com":        "host",
		"":                             "host",
		"registry.example.com/Mirror":  "path component",
	} {
		assert.Contains(t, registryProblem(loc), fragment, loc)
	}
}

func long(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}
