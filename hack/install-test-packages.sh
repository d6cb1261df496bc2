#!/usr/bin/env bash
# Copyright 2026 The kops addon operators Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Installs the Debian packages the tests need when their commands are missing: iptables (the node
# rules' network-namespace proof), iproute2 (ip netns), shellcheck (the node script's lint), time
# (a command's peak memory, for the start-up benchmark: a child of the Go test process would report
# the test's own), and
# what the test cluster's nodes run (make cluster, tests/e2e/nodecluster): containerd, runc, the CNI
# plugins (bridge, host-local, loopback, portmap), conntrack, socat and ethtool.
# CI starts without them, as root; a developer who is not root is told what to install.
set -euo pipefail

declare -A package_of=(
	[iptables]=iptables [ip6tables]=iptables [iptables-restore]=iptables [ip6tables-restore]=iptables
	[ip]=iproute2 [shellcheck]=shellcheck [/usr/bin/time]=time
)
# The one-node cluster's: it needs root, so a developer who is not root only hears about them.
declare -A node_package_of=(
	[containerd]=containerd [ctr]=containerd [runc]=runc [conntrack]=conntrack [socat]=socat [ethtool]=ethtool
	[nsenter]=util-linux [unshare]=util-linux
	[/usr/lib/cni/bridge]=containernetworking-plugins [/usr/lib/cni/host-local]=containernetworking-plugins
	[/usr/lib/cni/loopback]=containernetworking-plugins [/usr/lib/cni/portmap]=containernetworking-plugins
)

# present NAME: a command on PATH (or in /usr/sbin, which a non-root PATH may lack), or a file
# when NAME is a path.
present() {
	if [[ "$1" == /* ]]; then
		[ -x "$1" ]
	else
		command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]
	fi
}

missing=()
for name in "${!package_of[@]}"; do
	present "$name" || missing+=("${package_of[$name]}")
done
node_missing=()
for name in "${!node_package_of[@]}"; do
	present "$name" || node_missing+=("${node_package_of[$name]}")
done
if [ "$(id -u)" -ne 0 ]; then
	if [ "${#node_missing[@]}" -gt 0 ]; then
		mapfile -t node_packages < <(printf '%s\n' "${node_missing[@]}" | sort -u)
		echo "the one-node cluster (make cluster, tests/e2e/node) needs root and: ${node_packages[*]}" >&2
	fi
else
	missing+=("${node_missing[@]}")
fi
if [ "${#missing[@]}" -eq 0 ]; then
	exit 0
fi
mapfile -t packages < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
	echo "missing test packages: ${packages[*]}; install them (apt-get install ${packages[*]}) or run as root" >&2
	exit 1
fi
echo "installing test packages: ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
