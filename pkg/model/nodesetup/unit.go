package nodesetup

import (
	"fmt"
)

// Where the node files live on the machine.
const (
	// ScriptPath is under /opt/kops, where kops keeps its node binaries: writable on every image,
	// including those with a read-only /usr.
	ScriptPath = "/opt/kops/bin/kops-pod-metadata-access"
	// UnitName is the systemd unit that runs the script once per boot.
	UnitName = "kops-pod-metadata-access.service"
	UnitPath = "/etc/systemd/system/" + UnitName
)

// RenderUnit renders the oneshot unit. It runs after network-pre.target and before kubelet, and
// kubelet requires it: if the rules cannot be applied, kubelet does not start, so no pod ever runs
// on a node without them. It restarts nothing and nothing restarts it.
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
RequiredBy=kubelet.service
`, r.Mode, ScriptPath)
}
