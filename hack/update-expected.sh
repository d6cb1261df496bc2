#!/usr/bin/env bash
# Rewrites the golden files under tests/integration from what the code generates now. Read the
# resulting `git diff` before committing: a golden file changes only for a reason you can name.
set -euo pipefail
cd "$(dirname "$0")/.."
UPDATE_EXPECTED=1 go test -count=1 ./tests/integration/... ./tests/startup/ >/dev/null
go test -count=1 ./tests/integration/... ./tests/startup/
git status --short -- tests/integration tests/startup
