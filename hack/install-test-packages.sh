#!/usr/bin/env bash
# Installs the Debian packages the tests need when their commands are missing: iptables (the node
# rules' network-namespace proof), iproute2 (ip netns) and shellcheck (the node script's lint).
# CI starts without them, as root; a developer who is not root is told what to install.
set -euo pipefail

declare -A package_of=(
	[iptables]=iptables [ip6tables]=iptables [iptables-restore]=iptables [ip6tables-restore]=iptables
	[ip]=iproute2 [shellcheck]=shellcheck
)
missing=()
for command in "${!package_of[@]}"; do
	if ! command -v "$command" >/dev/null 2>&1; then
		missing+=("${package_of[$command]}")
	fi
done
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
