#!/usr/bin/env bash
# Puts `skillgraph` on the PATH from this clone: writes a small shim that runs packages/cli/dist/bin.js with node.
# Usage: npm run link:cli [-- DIR]   (DIR: where to put it; default: npm's global bin folder, which npm puts on the PATH)
# Remove it with `rm "$(command -v skillgraph)"`. Rebuild after pulling (`npm start` or `pnpm build`); the shim stays.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$(npm prefix -g)/bin}"
if [ ! -f "$root/packages/cli/dist/bin.js" ]; then
  echo "link-cli: $root/packages/cli/dist/bin.js is missing: build first (npm start, or bash scripts/bootstrap.sh)" >&2
  exit 1
fi
mkdir -p "$dir"
shim="$dir/skillgraph"
if [ -e "$shim" ] && ! grep -q "skillgraph shim" "$shim" 2>/dev/null; then
  echo "link-cli: $shim exists and is not a skillgraph shim; remove it or pass another folder" >&2
  exit 1
fi
printf '#!/bin/sh\n# skillgraph shim for the clone at %s (scripts/link-cli.sh)\nexec node "%s/packages/cli/dist/bin.js" "$@"\n' \
  "$root" "$root" >"$shim.tmp.$$"
chmod 755 "$shim.tmp.$$"
mv -f "$shim.tmp.$$" "$shim"
echo "link-cli: $shim -> $root/packages/cli/dist/bin.js" >&2
case ":$PATH:" in
  *":$dir:"*) ;;
  *) echo "link-cli: $dir is not on your PATH; add it (export PATH=\"$dir:\$PATH\")" >&2 ;;
esac
