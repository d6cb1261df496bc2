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

# Builds the S3 server that the s3:// state store tests run against: SeaweedFS's `weed`, from its
# Go module (the version pinned in hack/tools/seaweedfs/go.mod), into a git-ignored folder keyed
# by that version:
#   _output/testbin/seaweedfs-<version>/weed
# It does nothing when the binary is there and is the pinned version. Safe to run from any
# directory and more than once (concurrent runs wait for each other). The tests start it on
# 127.0.0.1 themselves (util/pkg/vfs/s3store/s3test); nothing here runs it.
#
# Why SeaweedFS and not MinIO: see docs/state-store.md ("The S3 server of the tests").
#
# With cold caches this downloads ~1 GB of modules and compiles for many minutes on 2 cores; it
# prints a line every 30 s while it builds. Extra go build flags can be passed with GOFLAGS (for
# example GOFLAGS=-p=1 to build one package at a time while another big build runs).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL="${REPO_ROOT}/hack/tools/seaweedfs"
MODULE="github.com/seaweedfs/seaweedfs"

export GOWORK=off
export CGO_ENABLED=0

VERSION="$(cd "${TOOL}" && go list -m -f '{{.Version}}' "${MODULE}")"
OUT="${REPO_ROOT}/_output/testbin/seaweedfs-${VERSION}"
BIN="${OUT}/weed"

# ok: the binary exists and was built from the pinned module version (go version -m names it as
# the main module, "mod", when built through the tool module).
ok() {
  [[ -x "${BIN}" ]] || return 1
  go version -m "${BIN}" 2>/dev/null | grep -qE "^[[:space:]]+(mod|dep)[[:space:]]+${MODULE}[[:space:]]+${VERSION}([[:space:]]|$)"
}

if ok; then
  echo "test S3 server ready: ${BIN}"
  exit 0
fi

mkdir -p "${OUT}"
if command -v flock >/dev/null 2>&1; then
  exec 9>"${OUT}/.lock"
  flock 9
  if ok; then
    echo "test S3 server ready: ${BIN}"
    exit 0
  fi
fi

echo "building the test S3 server (SeaweedFS ${VERSION}) into ${OUT}; many minutes with cold caches..."
start=${SECONDS}
(cd "${TOOL}" && go build -trimpath -ldflags "-s -w" -o "${OUT}/.weed.tmp" "${MODULE}/weed") &
build=$!
# Say something while it builds, so CI logs show it is alive.
while kill -0 "${build}" 2>/dev/null; do
  for _ in $(seq 30); do
    sleep 1
    kill -0 "${build}" 2>/dev/null || break
  done
  if kill -0 "${build}" 2>/dev/null; then
    echo "  still building the test S3 server: $((SECONDS - start))s"
  fi
done
wait "${build}"
mv -f "${OUT}/.weed.tmp" "${BIN}"
if ! ok; then
  echo "error: ${BIN} does not report ${MODULE} ${VERSION}" >&2
  exit 1
fi
echo "test S3 server built in $((SECONDS - start))s: ${BIN}"
