#!/usr/bin/env bash
# Runs every test (unit and integration) and ends with one plain line "N passed, N failed".
# Each step says what it is doing and how long it took (scripts/progress.mjs); progress lines go to stderr.
# Installs the system packages the integration tests need (PostgreSQL, bubblewrap) when they are missing and we are root.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system-deps.sh || echo "warning: could not install system packages; integration tests that need them will fail" >&2
mkdir -p .test-results
rm -f .test-results/vitest.json
# progress.mjs: a heartbeat line when the run is quiet (a slow test file), and how long the run took.
node scripts/progress.mjs "running the tests (vitest: unit and integration; the integration project starts PostgreSQL first)" \
  bash scripts/pnpm.sh exec vitest run --reporter=default --reporter=json --outputFile.json=.test-results/vitest.json "$@"
status=$?
node scripts/summarize-tests.mjs .test-results/vitest.json "$status"
