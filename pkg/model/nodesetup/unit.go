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
	GuardUnitName     = "kops-pod-metadata-access-guard.service"
	GuardUnitPath     = "/etc/systemd/system/" + GuardUnitName
	// GuardArg makes the script check the rules every GuardCheckSeconds and write them again when
	// they were removed.
	GuardArg = "--guard"
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

// RenderGuardUnit renders the unit that keeps the rules in place after boot: they are applied once,
// and a flush (iptables-restore without --noflush, nft flush ruleset, a firewall service
// restarting) would reopen metadata until the next boot. PartOf the boot unit, so restarting that
// one (a new mode) restarts the guard with the new script.
func RenderGuardUnit(r *Rules) []byte {
	return fmt.Appendf(nil, `[Unit]
Description=kops: keeps pod access to instance metadata at mode %s when the rules are flushed
After=%s
PartOf=%s
# Never gives up: a node whose rules cannot be written again keeps trying and says why in the journal.
StartLimitIntervalSec=0

[Service]
Type=simple
ExecStart=%s %s
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target
`, r.Mode, UnitName, UnitName, ScriptPath, GuardArg)
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
