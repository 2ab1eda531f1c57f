#!/usr/bin/env bash
# Runs the pinned pnpm without a global install: `bash scripts/pnpm.sh <args>`.
set -euo pipefail
PNPM_VERSION=10.34.9
if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then
  exec pnpm "$@"
fi
exec npx --yes "pnpm@$PNPM_VERSION" "$@"
