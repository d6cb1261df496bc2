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

# Runs every benchmark of hack/perf-benchmarks.txt and rewrites the generated block of
# docs/performance.md with their figures (medians and ranges), and where and when they ran. Run it
# on a quiet machine: the figures are what this machine measured, nothing is typed by hand. Read
# the diff before committing it.
#
# Takes 15-25 minutes on 2 cores (most of it the e2e benchmarks against a real API server, built
# first by hack/build-test-apiserver.sh if needed). Each entry's raw output is kept in
# _output/perf/ for benchstat.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${REPO_ROOT}"
OUT="${REPO_ROOT}/_output/perf"
rm -rf "${OUT}"
mkdir -p "${OUT}"

"${REPO_ROOT}/hack/build-test-apiserver.sh"
go build -o "${OUT}/perfdoc" ./hack/perfdoc

load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before="$(load)"
mapfile -t entries < <("${OUT}/perfdoc" list)
outputs=()
i=0
for entry in "${entries[@]}"; do
  IFS=$'\t' read -r module pkg bench benchtime count <<<"${entry}"
  i=$((i + 1))
  file="${OUT}/$(printf '%02d' "${i}").txt"
  echo "[${i}/${#entries[@]}] $(date -u +%H:%M:%S) ${module} ${pkg} -bench '${bench}' -benchtime ${benchtime} -count ${count}" >&2
  (cd "${module}" && go test "${pkg}" -run '^$' -bench "${bench}" -benchtime "${benchtime}" -count "${count}") >"${file}"
  outputs+=("${file}")
done

commit="$(git rev-parse --short HEAD)"
if [[ -n "$(git status --porcelain -- . ':!docs/performance.md')" ]]; then
  commit="${commit} (with uncommitted changes)"
fi
"${OUT}/perfdoc" render \
  -date "$(date -u +%Y-%m-%d)" \
  -commit "${commit}" \
  -go "$(go env GOVERSION)" \
  -cores "$(nproc)" \
  -memory "$(awk '/MemTotal/ {printf "%.0f GB", $2/1024/1024}' /proc/meminfo)" \
  -load-before "${load_before}" \
  -load-after "$(load)" \
  "${outputs[@]}"
echo "docs/performance.md rewritten; raw outputs in ${OUT}" >&2
