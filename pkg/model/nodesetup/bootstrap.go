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

package nodesetup

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

const (
	bootstrapPartName = "kops-bootstrap.sh"
	bootstrapPartType = `text/x-shellscript; charset="us-ascii"`
	// BootstrapConfigPath is kops's kube_env.yaml, which nodeup reads.
	BootstrapConfigPath = "/opt/kops/conf/kube_env.yaml"
)

var nodeupArchitectures = []struct{ name, uname string }{{"amd64", "x86_64"}, {"arm64", "aarch64"}}

var sha256RE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// ValidateNodeupSource requires known architectures, http(s) URLs (the hash, not the transport,
// vouches for the binary) and a lower-case hex SHA-256.
func ValidateNodeupSource(src model.NodeupSource, what string) error {
	for arch, bin := range src {
		if !slices.ContainsFunc(nodeupArchitectures, func(a struct{ name, uname string }) bool { return a.name == arch }) {
			return fmt.Errorf("%s: architecture %q: nodeup is built for amd64 and arm64", what, arch)
		}
		if len(bin.URLs) == 0 {
			return fmt.Errorf("%s: %s: no URL", what, arch)
		}
		for _, u := range bin.URLs {
			parsed, err := url.Parse(u)
			if err != nil || (parsed.Scheme != "https" && parsed.Scheme != "http") || parsed.Host == "" || strings.ContainsAny(u, " \t\n'\"\\$`,") {
				return fmt.Errorf("%s: %s: %q is not an http(s) URL without quotes, spaces, commas or shell characters", what, arch, u)
			}
		}
		if !sha256RE().MatchString(bin.SHA256) {
			return fmt.Errorf("%s: %s: %q is not a SHA-256 (64 lower-case hex digits)", what, arch, bin.SHA256)
		}
	}
	return nil
}

// HasBootstrap is true for control-plane groups when nodeup's source is known. Nodes are bootstrapped
// through kops-controller, whose CA this build does not read, so theirs comes with the group.
func HasBootstrap(ig *kops.InstanceGroup, src model.NodeupSource) bool {
	return ig.IsControlPlane() && len(src) > 0
}

// bootstrapScript runs after cloud-config's write_files, so the node rules are in place before nodeup
// starts kubelet.
func bootstrapScript(cluster *kops.Cluster, ig *kops.InstanceGroup, src model.NodeupSource) (string, error) {
	type arch struct{ Name, Uname, URLs, SHA256 string }
	data := struct {
		Group, ConfigPath, Config string
		Archs                     []arch
	}{Group: ig.Name, ConfigPath: BootstrapConfigPath}
	for _, a := range nodeupArchitectures {
		if bin, ok := src[a.name]; ok {
			data.Archs = append(data.Archs, arch{a.name, a.uname, strings.Join(bin.URLs, " "), bin.SHA256})
		}
	}
	// Values are YAML double-quoted strings, so nothing in them is read as YAML syntax.
	var config strings.Builder
	for _, kv := range [][2]string{
		{"CloudProvider", cluster.Spec.CloudProvider},
		{"ClusterName", cluster.Name},
		{"ConfigBase", strings.TrimSuffix(cluster.Spec.ConfigBase, "/")},
		{"InstanceGroupName", ig.Name},
		{"InstanceGroupRole", "ControlPlane"},
	} {
		fmt.Fprintf(&config, "%s: %s\n", kv[0], strconv.Quote(kv[1]))
	}
	data.Config = config.String()
	if strings.Contains(data.Config, "\nKOPS_BOOT_CONFIG") {
		return "", fmt.Errorf("the boot configuration holds the end marker of its here-document")
	}
	var b bytes.Buffer
	if err := bootstrapTemplate().Execute(&b, data); err != nil {
		return "", fmt.Errorf("rendering the bootstrap script: %w", err)
	}
	return b.String(), nil
}

var bootstrapTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("bootstrap").Parse(`#!/bin/bash
# Written by kops update cluster for instance group {{.Group}}.
# It downloads kops's nodeup for this machine's architecture, checks its SHA-256, writes the boot
# configuration that points nodeup at the cluster's state store, and runs nodeup, which installs
# and starts kubelet as the group's nodeupconfig.yaml in the state store says.
set -o errexit -o nounset -o pipefail

case "$(uname -m)" in
{{- range .Archs}}
{{.Uname}}) urls="{{.URLs}}" sha256={{.SHA256}} ;;
{{- end}}
*) echo "kops-bootstrap: no nodeup was given for architecture $(uname -m)" >&2; exit 1 ;;
esac

mkdir -p /opt/kops/bin /opt/kops/conf
nodeup=/opt/kops/bin/nodeup

# Try each URL in turn until one gives the expected bytes; a machine that cannot get nodeup keeps
# trying (a mirror may come back), as kops's own bootstrap does, rather than start without it.
until [[ -f "${nodeup}" ]] && [[ "$(sha256sum "${nodeup}" | cut -d' ' -f1)" == "${sha256}" ]]; do
  rm -f "${nodeup}"
  for url in ${urls}; do
    if curl -fsSL --connect-timeout 20 --retry 6 --retry-delay 10 -o "${nodeup}.tmp" "${url}" &&
      [[ "$(sha256sum "${nodeup}.tmp" | cut -d' ' -f1)" == "${sha256}" ]]; then
      mv "${nodeup}.tmp" "${nodeup}"
      break
    fi
    echo "kops-bootstrap: ${url} failed or gave other bytes than sha256 ${sha256}" >&2
    rm -f "${nodeup}.tmp"
  done
  [[ -f "${nodeup}" ]] || sleep 60
done
chmod 0755 "${nodeup}"

cat > {{.ConfigPath}} <<'KOPS_BOOT_CONFIG'
{{.Config}}KOPS_BOOT_CONFIG

exec "${nodeup}" --install-systemd-unit --conf={{.ConfigPath}} --v=8
`))
})
