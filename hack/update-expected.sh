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

# Rewrites the golden files under tests/integration and the command reference under docs/cli from
# what the code generates now. Read the resulting `git diff` before committing: a golden file
# changes only for a reason you can name.
set -euo pipefail
cd "$(dirname "$0")/.."
UPDATE_EXPECTED=1 go test -count=1 ./tests/integration/... ./tests/startup/ >/dev/null
UPDATE_EXPECTED=1 go test -count=1 -run TestCommandReference ./cmd/kops/ ./cmd/channels/ >/dev/null
go test -count=1 ./tests/integration/... ./tests/startup/
go test -count=1 -run TestCommandReference ./cmd/kops/ ./cmd/channels/
git status --short -- tests/integration tests/startup docs/cli
