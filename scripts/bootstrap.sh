#!/usr/bin/env bash
# Installs dependencies (building better-sqlite3 from source against the local Node headers, unless pnpm's store has
# that build already) and builds every package.
# Each step says what it is doing and how long it took, with a heartbeat line while a step is quiet (scripts/progress.mjs).
set -euo pipefail
# Everything here is progress, not output: stderr, so `npm start -- -p ... > answer.md` keeps only the answer.
exec 1>&2
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { node scripts/progress.mjs "$@"; }
# No prebuilt binaries are reachable here: node-gyp must build against the installed headers.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
if [ ! -d node_modules/.pnpm ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  # One pnpm install: the native build runs inside it and is reported as a step of its own (see progress.mjs
  # --substep). Deferring it (install --ignore-scripts, then pnpm rebuild) would cost a full build from source on every
  # fresh checkout: pnpm only reuses the build its store keeps (the side-effects cache) during an install.
  step --substep \
    "building the native SQLite module (better-sqlite3 from source against the local Node headers with node-gyp, about 75 s on 2 cores)" \
    "node-gyp" \
    "building the native SQLite module: nothing to build (pnpm restored better-sqlite3's earlier build from its store, or it was already built)" \
    "installing dependencies (pnpm install: linking every package from the pnpm store, downloading what it lacks)" \
    bash scripts/pnpm.sh install --frozen-lockfile --reporter=append-only --loglevel=warn
else
  echo "skillgraph: dependencies already installed (node_modules is newer than pnpm-lock.yaml)"
fi
# The exec-enforcement helpers (C, a few seconds): pnpm builds them in the package's install script; a checkout whose
# dependencies were installed before they existed, or whose C sources changed since, builds them here.
native_stale=
for source in packages/shell/native/*.c; do
  built=packages/shell/native/build/$(basename "$source" .c)
  if [ ! -x "$built" ] || [ "$source" -nt "$built" ]; then native_stale=1; fi
done
if [ -n "$native_stale" ]; then
  step "building the exec-enforcement helpers (packages/shell/native, C)" sh packages/shell/native/build.sh
fi
step "building the packages (turbo run build; cached when nothing changed)" \
  bash scripts/pnpm.sh exec turbo run build --output-logs=errors-only
echo "skillgraph: ready in $(($(date +%s) - started)) s"
