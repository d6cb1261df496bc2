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

# Builds the binaries of the test cluster (make cluster, tests/e2e/nodecluster) into a
# git-ignored folder keyed by versions:
#   _output/testbin/node-k8s-<version>-coredns-<version>-imds-<version>/
#     kubelet kube-controller-manager kube-scheduler kube-proxy   (hack/tools/kube-apiserver)
#     coredns                                                     (hack/tools/coredns)
#     ec2-metadata-mock                                           (hack/tools/ec2-metadata-mock)
#   _output/testbin/metrics-server-<version>/
#     metrics-server                                              (hack/tools/metrics-server)
# metrics-server has a folder of its own so that adding it (or moving it to another release) never
# renames the first folder, whose kubelet and kube-controller-manager take many minutes to link.
# kube-apiserver and etcd come from hack/build-test-apiserver.sh, which this script runs first.
# It does nothing when every binary is there and runs. Safe to run from any directory and more
# than once (concurrent runs wait for each other). Each build prints a line when it starts and
# when it ends, with its time.
#
# Links run one at a time (each ~2 GB of memory for kubelet and kube-controller-manager); set
# GOFLAGS=-p=1 as well to compile one package at a time on a machine shared with other builds.
# Measured on 2 cores: see docs/performance-history.md ("The one-node cluster").
#
# To move to another release: hack/tools/kube-apiserver/update.sh v1.X.Y, `go get -tool` in
# hack/tools/coredns, hack/tools/ec2-metadata-mock or hack/tools/metrics-server, then change the
# versions below and the folder names in tests/e2e/nodecluster/layout.go.
set -euo pipefail

K8S_VERSION="v1.35.4"
COREDNS_VERSION="v1.14.2"
IMDS_MOCK_VERSION="v1.13.0"
METRICS_SERVER_VERSION="v0.8.0"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${REPO_ROOT}/hack/tools"
OUT="${REPO_ROOT}/_output/testbin/node-k8s-${K8S_VERSION#v}-coredns-${COREDNS_VERSION#v}-imds-${IMDS_MOCK_VERSION#v}"
MS_OUT="${REPO_ROOT}/_output/testbin/metrics-server-${METRICS_SERVER_VERSION#v}"

k8s_minor="${K8S_VERSION#v1.}"
k8s_minor="${k8s_minor%%.*}"

# A go.work above the repo must not change what the tool modules resolve.
export GOWORK=off
# Static binaries; no C toolchain needed.
export CGO_ENABLED=0

"${REPO_ROOT}/hack/build-test-apiserver.sh"

# ok BINARY WANT VERSION_FLAG: the binary exists, runs, and its version output contains WANT.
ok() {
  local bin="$1" want="$2" flag="$3" got
  [[ -x "${bin}" ]] || return 1
  got="$("${bin}" "${flag}" 2>&1)" || return 1
  [[ "${got}" == *"${want}"* ]]
}

# pinned MODULE_DIR MODULE WANT: fail when the tool module pins another version than this script
# names, so the folder name cannot lie about its contents.
pinned() {
  local dir="$1" mod="$2" want="$3" got
  got="$(cd "${dir}" && go list -m -f '{{.Version}}' "${mod}")"
  if [[ "${got}" != "${want}" ]]; then
    echo "error: ${dir}/go.mod pins ${mod} ${got}, but $0 expects ${want}; update one of them" >&2
    exit 1
  fi
}

# Every binary: FOLDER NAME MODULE_DIR PACKAGE VERSION_OUTPUT VERSION_FLAG.
k8s_ldflags="-s -w -X k8s.io/component-base/version.gitVersion=${K8S_VERSION} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${k8s_minor}"
# metrics-server prints client-go's version variable, which its own release builds set the same way.
ms_ldflags="-s -w -X k8s.io/client-go/pkg/version.gitVersion=${METRICS_SERVER_VERSION}"
binaries=(
  "${OUT}|kube-scheduler|${TOOLS}/kube-apiserver|k8s.io/kubernetes/cmd/kube-scheduler|Kubernetes ${K8S_VERSION}|--version"
  "${OUT}|kube-proxy|${TOOLS}/kube-apiserver|k8s.io/kubernetes/cmd/kube-proxy|Kubernetes ${K8S_VERSION}|--version"
  "${OUT}|kube-controller-manager|${TOOLS}/kube-apiserver|k8s.io/kubernetes/cmd/kube-controller-manager|Kubernetes ${K8S_VERSION}|--version"
  "${OUT}|kubelet|${TOOLS}/kube-apiserver|k8s.io/kubernetes/cmd/kubelet|Kubernetes ${K8S_VERSION}|--version"
  "${OUT}|coredns|${TOOLS}/coredns|github.com/coredns/coredns|CoreDNS-${COREDNS_VERSION#v}|-version"
  "${OUT}|ec2-metadata-mock|${TOOLS}/ec2-metadata-mock|github.com/aws/amazon-ec2-metadata-mock/cmd/ec2-metadata-mock|${IMDS_MOCK_VERSION}|--version"
  "${MS_OUT}|metrics-server|${TOOLS}/metrics-server|sigs.k8s.io/metrics-server/cmd/metrics-server|${METRICS_SERVER_VERSION}|--version"
)

all_ok() {
  local entry out name dir pkg want flag
  for entry in "${binaries[@]}"; do
    IFS='|' read -r out name dir pkg want flag <<<"${entry}"
    ok "${out}/${name}" "${want}" "${flag}" || return 1
  done
}

if all_ok; then
  echo "node binaries ready in ${OUT} and ${MS_OUT}"
  exit 0
fi

mkdir -p "${OUT}" "${MS_OUT}"
if command -v flock >/dev/null 2>&1; then
  exec 9>"${OUT}/.lock"
  if ! flock -n 9; then
    echo "another build of the node binaries is running; waiting for it..."
    flock 9
  fi
  # Another run may have finished the build while this one waited.
  if all_ok; then
    echo "node binaries ready in ${OUT} and ${MS_OUT}"
    exit 0
  fi
fi

pinned "${TOOLS}/kube-apiserver" k8s.io/kubernetes "${K8S_VERSION}"
pinned "${TOOLS}/coredns" github.com/coredns/coredns "${COREDNS_VERSION}"
pinned "${TOOLS}/ec2-metadata-mock" github.com/aws/amazon-ec2-metadata-mock "${IMDS_MOCK_VERSION}"
pinned "${TOOLS}/metrics-server" sigs.k8s.io/metrics-server "${METRICS_SERVER_VERSION}"

# Builds into a temporary name and renames it, so an interrupted build never leaves a binary that
# looks complete. One go build at a time: a kubelet link alone takes ~2 GB.
total_start=${SECONDS}
for entry in "${binaries[@]}"; do
  IFS='|' read -r out name dir pkg want flag <<<"${entry}"
  if ok "${out}/${name}" "${want}" "${flag}"; then
    echo "${name}: already built"
    continue
  fi
  ldflags="-s -w"
  case "${dir}" in
    "${TOOLS}/kube-apiserver") ldflags="${k8s_ldflags}" ;;
    "${TOOLS}/metrics-server") ldflags="${ms_ldflags}" ;;
  esac
  echo "building ${name} from ${pkg} (minutes with cold caches; started $(date +%H:%M:%S))..."
  start=${SECONDS}
  (cd "${dir}" && go build -ldflags "${ldflags}" -o "${out}/.${name}.tmp" "${pkg}")
  mv -f "${out}/.${name}.tmp" "${out}/${name}"
  if ! ok "${out}/${name}" "${want}" "${flag}"; then
    echo "error: ${out}/${name} does not report ${want}: $("${out}/${name}" "${flag}" 2>&1 | head -1 || true)" >&2
    exit 1
  fi
  echo "${name}: built in $((SECONDS - start))s"
done
echo "node binaries ready in ${OUT} and ${MS_OUT} (built in $((SECONDS - total_start))s)"
