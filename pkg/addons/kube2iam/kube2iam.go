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

package kube2iam

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"k8s.io/kops/pkg/templates"
)

// The addon, named as in the bootstrap channel.
const (
	AddonName = "kube2iam.addons.k8s.io"
	AddonID   = "k8s-1.12"
	Template  = "templates/kube2iam.addons.k8s.io/k8s-1.12.yaml.template"
)

// Where kube2iam runs and the identity it runs as.
const (
	Namespace      = "kube-system"
	ServiceAccount = "kube2iam"
	// Name names the DaemonSet, the ClusterRole and the ClusterRoleBinding.
	Name = "kube2iam"
)

// DefaultImage is kube2iam's latest release, pinned by tag, not digest (see
// docs/metadata-access-kube2iam.md).
const DefaultImage = "docker.io/jtblin/kube2iam:0.11.2"

// Config is what the rendering needs.
type Config struct {
	// Image is already remapped.
	Image string
	// Port is the node port (--app-port) the node rules send pods to.
	Port int32
	// BaseRoleARN and DefaultRole are passed when set.
	BaseRoleARN           string
	DefaultRole           string
	NamespaceRestrictions bool
}

// argValueRE refuses whitespace and control characters in a flag value: harmless in a shell-less
// args list, but they mislead a reader of the manifest.
var argValueRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\s\x00-\x1f\x7f]*$`) })

// Problem is one setting Render cannot take; Field is spelled as in the cluster spec.
type Problem struct {
	Field, Detail string
}

func (p Problem) String() string { return p.Field + ": " + p.Detail }

// Check returns every problem of c at once.
func (c Config) Check() []Problem {
	var problems []Problem
	if c.Image == "" {
		problems = append(problems, Problem{"image", "is empty"})
	}
	if c.Port < 1 || c.Port > 65535 {
		problems = append(problems, Problem{"port", fmt.Sprintf("%d is not between 1 and 65535", c.Port)})
	}
	for _, v := range []struct{ name, value string }{{"baseRoleARN", c.BaseRoleARN}, {"defaultRole", c.DefaultRole}} {
		if !argValueRE().MatchString(v.value) {
			problems = append(problems, Problem{v.name, fmt.Sprintf("%q contains whitespace or control characters", v.value)})
		}
	}
	return problems
}

// Render returns kube2iam's objects (ServiceAccount, ClusterRole, ClusterRoleBinding, DaemonSet)
// as one YAML stream; the same Config always gives the same bytes.
func Render(c Config) ([]byte, error) {
	if problems := c.Check(); len(problems) > 0 {
		lines := make([]string, len(problems))
		for i, p := range problems {
			lines[i] = p.String()
		}
		return nil, fmt.Errorf("rendering kube2iam: %s", strings.Join(lines, "; "))
	}
	return templates.Render(templateFS, Template, c)
}
