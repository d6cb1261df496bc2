// Package kube2iam renders kube2iam, the credentials proxy pods are sent to in podMetadataAccess
// mode Forward, from a few settings. It knows nothing of the cluster spec: pkg/model/addons maps
// the cluster to a Config.
package kube2iam

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/kops/upup/models"
)

// The addon, as named in the bootstrap channel, and the template it renders.
const (
	AddonName = "kube2iam.addons.k8s.io"
	AddonID   = "k8s-1.12"
	Template  = "cloudup/resources/addons/kube2iam.addons.k8s.io/k8s-1.12.yaml.template"
)

// Where kube2iam runs and the identity it runs as.
const (
	Namespace      = "kube-system"
	ServiceAccount = "kube2iam"
	// Name names the DaemonSet, the ClusterRole and the ClusterRoleBinding.
	Name = "kube2iam"
)

// DefaultImage is kube2iam's release image, pinned by tag: Docker Hub publishes it, and no
// digest could be checked from here (see docs/metadata-access-kube2iam.md).
const DefaultImage = "docker.io/jtblin/kube2iam:0.15.0"

// Config is what the rendering needs.
type Config struct {
	// Image is the kube2iam image, already remapped.
	Image string
	// Port is the node port kube2iam listens on (--app-port), where the node rules send pods.
	Port int32
	// BaseRoleARN and DefaultRole are passed when set.
	BaseRoleARN string
	DefaultRole string
	// NamespaceRestrictions adds --namespace-restrictions.
	NamespaceRestrictions bool
}

// argValueRE is what a flag value may hold: no whitespace or control characters, which would make
// a second argument in a shell-less args list only in the reader's eyes, but still confuse them.
var argValueRE = regexp.MustCompile(`^[^\s\x00-\x1f\x7f]*$`)

// Check returns every problem of c at once, each naming its field of Config.
func (c Config) Check() []string {
	var problems []string
	if c.Image == "" {
		problems = append(problems, "image is empty")
	}
	if c.Port < 1 || c.Port > 65535 {
		problems = append(problems, fmt.Sprintf("port %d is not between 1 and 65535", c.Port))
	}
	for _, v := range []struct{ name, value string }{{"baseRoleARN", c.BaseRoleARN}, {"defaultRole", c.DefaultRole}} {
		if !argValueRE.MatchString(v.value) {
			problems = append(problems, fmt.Sprintf("%s %q contains whitespace or control characters", v.name, v.value))
		}
	}
	return problems
}

// Render returns kube2iam's objects (ServiceAccount, ClusterRole, ClusterRoleBinding, DaemonSet)
// as one YAML stream; the same Config always gives the same bytes.
func Render(c Config) ([]byte, error) {
	if problems := c.Check(); len(problems) > 0 {
		return nil, fmt.Errorf("rendering kube2iam: %s", strings.Join(problems, "; "))
	}
	return models.Render(Template, c)
}
