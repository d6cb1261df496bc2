package assets

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// dockerHub is the registry of references that name none; dockerHubLegacy is its old alias.
const (
	dockerHub       = "docker.io"
	dockerHubLegacy = "index.docker.io"
	dockerHubPrefix = "library"
)

// The grammar is a strict subset of the OCI distribution reference grammar: rejecting early what a
// container runtime would reject on the node turns a pod stuck in ErrImagePull into an error at
// `kops update` time, with the field to fix.
var (
	registryRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?$`)
	})
	componentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`) })
	tagRE       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`) })
	digestRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$`) })
	hasUpperRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Z]`) })
)

// registryHintChars mark a first path component as a registry host, as container runtimes decide.
const registryHintChars = ".:"

// imageRef is a parsed image reference, normalized the way container runtimes normalize it:
// "busybox" is docker.io/library/busybox.
type imageRef struct {
	registry   string // e.g. registry.k8s.io, docker.io
	repository string // path below the registry, e.g. coredns/coredns
	tag        string // without ':'; may be empty
	digest     string // without '@'; may be empty
}

// suffix is the reference's tag and digest exactly as written, so that remapping never changes
// which content is pulled.
func (r imageRef) suffix() string {
	s := ""
	if r.tag != "" {
		s += ":" + r.tag
	}
	if r.digest != "" {
		s += "@" + r.digest
	}
	return s
}

// parseImage parses and normalizes an image reference.
func parseImage(image string) (imageRef, error) {
	var ref imageRef
	if image == "" {
		return ref, fmt.Errorf("image reference is empty")
	}
	if strings.ContainsAny(image, " \t\r\n") {
		return ref, fmt.Errorf("image reference %q contains whitespace", image)
	}
	name := image
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, ref.digest = name[:i], name[i+1:]
		if !digestRE().MatchString(ref.digest) {
			return ref, fmt.Errorf("image reference %q: invalid digest %q", image, ref.digest)
		}
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, ref.tag = name[:i], name[i+1:]
		if !tagRE().MatchString(ref.tag) {
			return ref, fmt.Errorf("image reference %q: invalid tag %q", image, ref.tag)
		}
	}

	parts := strings.Split(name, "/")
	if len(parts) > 1 && (strings.ContainsAny(parts[0], registryHintChars) || parts[0] == "localhost") {
		ref.registry, parts = parts[0], parts[1:]
		if !registryRE().MatchString(ref.registry) {
			return ref, fmt.Errorf("image reference %q: invalid registry %q", image, ref.registry)
		}
	}
	for _, p := range parts {
		if !componentRE().MatchString(p) {
			hint := ""
			if hasUpperRE().MatchString(p) {
				hint = " (repository names must be lowercase)"
			}
			return ref, fmt.Errorf("image reference %q: invalid repository component %q%s", image, p, hint)
		}
	}
	if ref.registry == "" || ref.registry == dockerHubLegacy {
		ref.registry = dockerHub
	}
	if ref.registry == dockerHub && len(parts) == 1 {
		parts = append([]string{dockerHubPrefix}, parts...)
	}
	ref.repository = strings.Join(parts, "/")
	return ref, nil
}

// parseLocation validates a registry location from spec.assets: a registry host, optionally
// followed by a repository path ("registry.example.com/mirror"). A trailing slash is dropped.
func parseLocation(loc string) (string, error) {
	loc = strings.TrimSuffix(loc, "/")
	if strings.Contains(loc, "://") {
		return "", fmt.Errorf("%q must be a registry host, not a URL: drop the scheme", loc)
	}
	parts := strings.Split(loc, "/")
	if !registryRE().MatchString(parts[0]) {
		return "", fmt.Errorf("%q does not start with a registry host", loc)
	}
	// Remapped images start with the location, and runtimes read a first component without a dot
	// or a port as a Docker Hub namespace: images remapped to "mirror" would be pulled from
	// docker.io/mirror/..., someone else's repositories.
	if !strings.ContainsAny(parts[0], registryHintChars) && parts[0] != "localhost" {
		return "", fmt.Errorf("%q: %q would be read as a Docker Hub namespace, not a registry host; give its domain name or port (%s.example.com, %s:5000)", loc, parts[0], parts[0], parts[0])
	}
	for _, p := range parts[1:] {
		if !componentRE().MatchString(p) {
			return "", fmt.Errorf("%q: invalid repository component %q (lowercase letters, digits and . _ - only)", loc, p)
		}
	}
	return loc, nil
}
