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

# Builds the kube-apiserver and etcd binaries that tests/e2e runs (through
# controller-runtime's envtest) into a git-ignored folder keyed by versions:
#   _output/testbin/k8s-<version>-etcd-<version>/{kube-apiserver,etcd}
# It does nothing when both binaries are there and run. Safe to run from any
# directory and more than once (concurrent runs wait for each other).
#
# Measured on 2 cores: with empty Go module and build caches, about 3.5
# minutes (etcd 40 s, kube-apiserver 3 min; ~760 MB of modules downloaded,
# ~2.3 GB of build cache); with a warm build cache, about 10 s; when the
# binaries are there, a fraction of a second. Peak memory is the linker of
# kube-apiserver, ~1.8 GB. Extra go build flags can be passed with GOFLAGS (for
# example GOFLAGS=-p=1 to build one package at a time).
#
# To move to another release: run hack/tools/kube-apiserver/update.sh v1.X.Y
# (or `go get -tool` in hack/tools/etcd), then change the versions below and
# the folder name in tests/e2e/framework.
set -euo pipefail

K8S_VERSION="v1.35.4"
ETCD_VERSION="v3.6.5"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${REPO_ROOT}/hack/tools"
OUT="${REPO_ROOT}/_output/testbin/k8s-${K8S_VERSION#v}-etcd-${ETCD_VERSION#v}"

k8s_minor="${K8S_VERSION#v1.}"
k8s_minor="${k8s_minor%%.*}"

# A go.work above the repo must not change what the tool modules resolve.
export GOWORK=off
# Static binaries, as Kubernetes releases them; no C toolchain needed.
export CGO_ENABLED=0

# ok BINARY WANT: the binary exists, runs, and reports version WANT.
ok() {
  local bin="$1" want="$2" got
  [[ -x "${bin}" ]] || return 1
  got="$("${bin}" --version 2>&1)" || return 1
  [[ "${got}" == *"${want}"* ]]
}

# pinned MODULE_DIR MODULE WANT: fail when the tool module pins another version
# than this script names, so the folder name cannot lie about its contents.
pinned() {
  local dir="$1" mod="$2" want="$3" got
  got="$(cd "${dir}" && go list -m -f '{{.Version}}' "${mod}")"
  if [[ "${got}" != "${want}" ]]; then
    echo "error: ${dir}/go.mod pins ${mod} ${got}, but $0 expects ${want}; update one of them" >&2
    exit 1
  fi
}

all_ok() {
  ok "${OUT}/kube-apiserver" "Kubernetes ${K8S_VERSION}" && ok "${OUT}/etcd" "etcd Version: ${ETCD_VERSION#v}"
}

if all_ok; then
  echo "test API server binaries ready in ${OUT}"
  exit 0
fi

mkdir -p "${OUT}"
if command -v flock >/dev/null 2>&1; then
  exec 9>"${OUT}/.lock"
  flock 9
  # Another run may have finished the build while this one waited.
  if all_ok; then
    echo "test API server binaries ready in ${OUT}"
    exit 0
  fi
fi

# wait_for PID SECONDS: true once the process has exited, false if it still runs after SECONDS.
wait_for() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  ! kill -0 "$1" 2>/dev/null
}

# build NAME MODULE_DIR PACKAGE WANT [go build flags...]
# Builds into a temporary name and renames it, so an interrupted build never
# leaves a binary that looks complete.
build() {
  local name="$1" dir="$2" pkg="$3" want="$4"
  shift 4
  if ok "${OUT}/${name}" "${want}"; then
    echo "${name}: already built"
    return
  fi
  echo "building ${name} from ${pkg} (minutes with cold caches)..."
  local start=${SECONDS} pid
  (cd "${dir}" && go build "$@" -o "${OUT}/.${name}.tmp" "${pkg}") &
  pid=$!
  # A line every 30 s, so that a long build on a loaded machine is never silent.
  while ! wait_for "${pid}" 30; do
    echo "  still building ${name} ($((SECONDS - start))s)"
  done
  wait "${pid}"
  mv -f "${OUT}/.${name}.tmp" "${OUT}/${name}"
  if ! ok "${OUT}/${name}" "${want}"; then
    echo "error: ${OUT}/${name} does not report ${want}: $("${OUT}/${name}" --version 2>&1 || true)" >&2
    exit 1
  fi
  echo "${name}: built in $((SECONDS - start))s"
}

pinned "${TOOLS}/kube-apiserver" k8s.io/kubernetes "${K8S_VERSION}"
pinned "${TOOLS}/etcd" go.etcd.io/etcd/server/v3 "${ETCD_VERSION}"

build etcd "${TOOLS}/etcd" go.etcd.io/etcd/server/v3 "etcd Version: ${ETCD_VERSION#v}" \
  -ldflags "-s -w"
build kube-apiserver "${TOOLS}/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver "Kubernetes ${K8S_VERSION}" \
  -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=${K8S_VERSION} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${k8s_minor}"

echo "test API server binaries ready in ${OUT}"
