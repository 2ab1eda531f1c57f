#!/usr/bin/env bash
# Installs dependencies (building better-sqlite3 from source against the local Node headers) and builds every package.
set -euo pipefail
# Everything here is progress, not output: stderr, so `npm start -- -p ... > answer.md` keeps only the answer.
exec 1>&2
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
cd "$(dirname "$0")/.."
# No prebuilt binaries are reachable here: node-gyp must build against the installed headers.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
if [ ! -d node_modules/.pnpm ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  bash scripts/pnpm.sh install --frozen-lockfile --reporter=append-only --loglevel=warn
fi
bash scripts/pnpm.sh exec turbo run build --output-logs=errors-only
