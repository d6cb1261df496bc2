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
	"fmt"
)

const (
	// ScriptPath is under /opt/kops, writable even on images with a read-only /usr.
	ScriptPath        = "/opt/kops/bin/kops-pod-metadata-access"
	UnitName          = "kops-pod-metadata-access.service"
	UnitPath          = "/etc/systemd/system/" + UnitName
	KubeletDropInPath = "/etc/systemd/system/kubelet.service.d/10-kops-pod-metadata-access.conf"
)

// RenderUnit renders the oneshot unit, after network-pre.target and before kubelet.
func RenderUnit(r *Rules) []byte {
	return fmt.Appendf(nil, `[Unit]
Description=kops: pod access to instance metadata (mode %s)
Wants=network-pre.target
After=network-pre.target
Before=kubelet.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=%s

[Install]
WantedBy=multi-user.target
`, r.Mode, ScriptPath)
}

// RenderKubeletDropIn makes kubelet require the unit, so without the rules no pod runs. A file, not an
// "enable", so it holds from cloud-init's first stage before any bootstrap can start kubelet.
func RenderKubeletDropIn() []byte {
	return []byte(`# Written by kops: pods must not start before their access to instance metadata is set.
[Unit]
Requires=` + UnitName + `
After=` + UnitName + `
`)
}
