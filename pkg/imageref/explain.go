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
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
)

const form = "expected [host[:port]/]path[:tag][@algorithm:hex], path components in lowercase"

// The library's patterns, anchored, only to name the part it refused; validity is the library's call.
var (
	anchoredDigest    = sync.OnceValue(func() *regexp.Regexp { return anchor(reference.DigestRegexp) })
	anchoredTag       = sync.OnceValue(func() *regexp.Regexp { return anchor(reference.TagRegexp) })
	anchoredDomain    = sync.OnceValue(func() *regexp.Regexp { return anchor(reference.DomainRegexp) })
	anchoredComponent = sync.OnceValue(func() *regexp.Regexp { return anchor(reference.NameRegexp) })
)

func anchor(re *regexp.Regexp) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + re.String() + `)$`)
}

// explain names the first bad part of s, falling back to the library's terse message.
func explain(s string, err error) string {
	switch {
	case s == "":
		return "is empty"
	case strings.Contains(s, "://"):
		return "must not include a scheme such as https://"
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		return "must not contain whitespace"
	}
	rest, dgst, hasDigest := strings.Cut(s, "@")
	if hasDigest && !anchoredDigest().MatchString(dgst) {
		return "digest " + quote(dgst) + " must be algorithm:hex, e.g. sha256:<64 hex digits>"
	}
	if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
		if tag := rest[i+1:]; !anchoredTag().MatchString(tag) {
			return "tag " + quote(tag) + " must be 1 to 128 letters, digits, '_', '.' or '-', not starting with '.' or '-'"
		}
		rest = rest[:i]
	}
	if rest == "" {
		return "names no repository"
	}
	components := strings.Split(rest, "/")
	// The first component is a registry host when runtimes read it as one (see splitDockerDomain).
	if first := components[0]; len(components) > 1 && (strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first) {
		if !anchoredDomain().MatchString(first) {
			return "registry host " + quote(first) + " must be a DNS name, an IPv4 address or an [IPv6] address, with an optional :port"
		}
		components = components[1:]
	}
	for _, c := range components {
		switch {
		case c == "":
			return "must not contain an empty path component (a doubled or trailing /)"
		case strings.ToLower(c) != c:
			return "path component " + quote(c) + " must be lowercase"
		case !anchoredComponent().MatchString(c):
			return "path component " + quote(c) + " must be lowercase letters and digits separated by '.', '_', '__' or '-'"
		}
	}
	if errors.Is(err, digest.ErrDigestInvalidLength) || errors.Is(err, digest.ErrDigestInvalidFormat) || errors.Is(err, digest.ErrDigestUnsupported) {
		return "digest " + quote(dgst) + ": " + err.Error() + " (a sha256 digest is 64 lowercase hex digits)"
	}
	if msg := err.Error(); msg != reference.ErrReferenceInvalidFormat.Error() {
		return msg
	}
	return "invalid reference format; " + form
}

func quote(s string) string { return strconv.Quote(s) }
