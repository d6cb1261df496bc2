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

package imageref

import (
	// go-digest validates sha256 digests only when the hash is linked in.
	_ "crypto/sha256"
	_ "crypto/sha512"
	"fmt"
	"strconv"
	"strings"

	"github.com/distribution/reference"
)

// Image is normalised as runtimes do: "busybox" is docker.io/library/busybox.
type Image struct {
	Registry   string // e.g. registry.k8s.io, docker.io, localhost:5000, [::1]:5000
	Repository string // the path below the registry, e.g. coredns/coredns, library/busybox
	Tag        string // without ':'; may be empty
	Digest     string // algorithm:hex without '@'; may be empty
}

// Suffix is the tag and digest as written (":tag", "@digest" or both).
func (i Image) Suffix() string {
	s := ""
	if i.Tag != "" {
		s += ":" + i.Tag
	}
	if i.Digest != "" {
		s += "@" + i.Digest
	}
	return s
}

func (i Image) String() string { return i.Registry + "/" + i.Repository + i.Suffix() }

func Parse(s string) (Image, error) {
	img, msg := parse(s)
	if msg != "" {
		return Image{}, fmt.Errorf("image reference %q: %s", s, msg)
	}
	return img, nil
}

func parse(s string) (Image, string) {
	named, err := reference.ParseNormalizedNamed(s)
	if err != nil {
		return Image{}, explain(s, err)
	}
	img := Image{Registry: reference.Domain(named), Repository: reference.Path(named)}
	if img.Registry == "" {
		// A dotted first component that is no valid host is a path to the grammar and a host to runtimes:
		// nothing pullable either way.
		return Image{}, explain(s, reference.ErrReferenceInvalidFormat)
	}
	if t, ok := named.(reference.Tagged); ok {
		img.Tag = t.Tag()
	}
	if d, ok := named.(reference.Digested); ok {
		img.Digest = d.Digest().String()
	}
	if msg := portProblem(img.Registry); msg != "" {
		return Image{}, msg
	}
	return img, ""
}

// ParsePinned requires a tag other than "latest" or a sha256 digest (the only digest the operators'
// CRD pattern accepts): a node pulling a mutable tag gets whatever was pushed last.
func ParsePinned(s string) (Image, error) {
	img, err := Parse(s)
	switch {
	case err != nil:
		return Image{}, err
	case img.Digest != "":
		if algorithm, _, _ := strings.Cut(img.Digest, ":"); algorithm != "sha256" {
			return Image{}, fmt.Errorf("image reference %q: pin it with a sha256 digest, not %s", s, algorithm)
		}
	case img.Tag == "":
		return Image{}, fmt.Errorf("image reference %q has no tag; pin it with a version tag or a digest", s)
	case img.Tag == "latest":
		return Image{}, fmt.Errorf("image reference %q uses the mutable tag latest; pin it with a version tag or a digest", s)
	}
	return img, nil
}

func portProblem(registry string) string {
	i := strings.LastIndex(registry, ":")
	if i < 0 || i < strings.LastIndex(registry, "]") {
		return ""
	}
	if n, err := strconv.Atoi(registry[i+1:]); err != nil || n < 1 || n > 65535 {
		return fmt.Sprintf("port %q of registry %q must be a number from 1 to 65535", registry[i+1:], registry)
	}
	return ""
}

// ParseLocation checks a spec.assets registry location (host[/path]), returning it without a
// trailing slash.
func ParseLocation(loc string) (string, error) {
	loc = strings.TrimSuffix(loc, "/")
	if strings.Contains(loc, "://") {
		return "", fmt.Errorf("%q must be a registry host, not a URL: drop the scheme", loc)
	}
	host, _, _ := strings.Cut(loc, "/")
	// Runtimes read a first component without a dot or port as a Docker Hub namespace: images remapped
	// to "mirror" would come from someone else's docker.io/mirror.
	if !strings.ContainsAny(host, ".:") && host != "localhost" {
		return "", fmt.Errorf("%q: %q would be read as a Docker Hub namespace, not a registry host; give its domain name or port (%s.example.com, %s:5000)", loc, host, host, host)
	}
	// A location is valid when an image below it is.
	img, msg := parse(loc + "/x")
	if msg == "" && (img.Registry != host || img.Tag != "" || img.Digest != "") {
		msg = "expected host[:port][/path]"
	}
	if msg != "" {
		return "", fmt.Errorf("%q: %s", loc, msg)
	}
	return loc, nil
}
