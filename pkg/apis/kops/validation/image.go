package validation

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The pieces of a container image reference, after the distribution reference grammar.
var (
	hostLabelRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$`) })
	pathComponentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*$`) })
	tagRE           = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\w[\w.-]{0,127}$`) })
	digestRE        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+([+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$`) })
)

// imageProblem explains what is wrong with an image reference such as
// registry.k8s.io/coredns/coredns:v1.12.0 or name@sha256:<hex>, or returns "" when it is plausible.
func imageProblem(ref string) string {
	if msg := commonRefProblem(ref); msg != "" {
		return msg
	}
	name, digest, hasDigest := strings.Cut(ref, "@")
	if hasDigest && !digestRE().MatchString(digest) {
		return fmt.Sprintf("digest %q must be algorithm:hex, e.g. sha256:<64 hex digits>", digest)
	}
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		if tag := name[i+1:]; !tagRE().MatchString(tag) {
			return fmt.Sprintf("tag %q must be letters, digits, '_', '.' or '-', at most 128 long", tag)
		}
		name = name[:i]
	}
	components := strings.Split(name, "/")
	if len(components) > 1 && looksLikeHost(components[0]) {
		if msg := hostPortProblem(components[0]); msg != "" {
			return msg
		}
		components = components[1:]
	}
	return pathProblem(components)
}

// registryProblem explains what is wrong with a registry location host[:port][/path], as used for
// assets.containerRegistry and assets.containerProxy, or returns "" when it is fine.
func registryProblem(location string) string {
	if msg := commonRefProblem(location); msg != "" {
		return msg
	}
	host, path, hasPath := strings.Cut(location, "/")
	if msg := hostPortProblem(host); msg != "" {
		return msg
	}
	if !hasPath {
		return ""
	}
	return pathProblem(strings.Split(path, "/"))
}

func commonRefProblem(s string) string {
	switch {
	case strings.Contains(s, "://"):
		return "must not include a scheme such as https://"
	case strings.IndexFunc(s, isSpace) >= 0:
		return "must not contain whitespace"
	}
	return ""
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// looksLikeHost tells a registry host from a first path component, as container runtimes do.
func looksLikeHost(s string) bool {
	return strings.ContainsAny(s, ".:[") || s == "localhost" || strings.ToLower(s) != s
}

// hostPortProblem checks host[:port], where host is a DNS name, an IPv4 address or [IPv6].
func hostPortProblem(hostPort string) string {
	host, port := hostPort, ""
	if strings.HasPrefix(hostPort, "[") {
		end := strings.Index(hostPort, "]")
		if end < 0 {
			return fmt.Sprintf("host %q is missing the closing ]", hostPort)
		}
		host, port = hostPort[:end+1], strings.TrimPrefix(hostPort[end+1:], ":")
		if a, err := netip.ParseAddr(host[1 : len(host)-1]); err != nil || !a.Is6() {
			return fmt.Sprintf("host %q must be an IPv6 address inside []", host)
		}
		if hostPort[end+1:] != "" && !strings.HasPrefix(hostPort[end+1:], ":") {
			return fmt.Sprintf("unexpected %q after %s", hostPort[end+1:], host)
		}
	} else {
		if i := strings.LastIndex(hostPort, ":"); i >= 0 {
			host, port = hostPort[:i], hostPort[i+1:]
		}
		if !isHostname(host) {
			return fmt.Sprintf("host %q must be a DNS name or IP address", host)
		}
	}
	if port == "" && strings.HasSuffix(hostPort, ":") {
		return fmt.Sprintf("port after %q is empty", host)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("port %q must be a number from 1 to 65535", port)
		}
	}
	return ""
}

func isHostname(host string) bool {
	if host == "" {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if !hostLabelRE().MatchString(label) {
			return false
		}
	}
	return true
}

func pathProblem(components []string) string {
	for _, c := range components {
		if c == "" {
			return "must not contain an empty path component (a doubled or trailing /)"
		}
		if !pathComponentRE().MatchString(c) {
			return fmt.Sprintf("path component %q must be lowercase letters and digits separated by '.', '_' or '-'", c)
		}
	}
	return ""
}
