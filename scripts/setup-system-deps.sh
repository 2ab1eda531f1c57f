#!/usr/bin/env bash
# Installs Debian packages the integration tests use: a PostgreSQL server, bubblewrap, python3-venv, tmux, and qemu with
# a static busybox (the cgroup v2 limit test boots a Debian kernel under qemu; that test fetches the kernel package
# itself with `apt-get download` into node_modules/.cache, it is never installed). Idempotent.
set -euo pipefail
# Package tools (dpkg, ldconfig, runuser) live in sbin, which a minimal PATH may lack.
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# per-skill Python environments (tests build a venv inside the sandbox with the system python3)
/usr/bin/python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3 python3-venv)
# the terminal recording test of interactive chat (test/e2e/chat-terminal-recording.int.test.ts)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# the cgroup v2 limit test (packages/shell/src/executor/command-cgroup-v2-limits.int.test.ts): a guest kernel under qemu
command -v qemu-system-x86_64 >/dev/null 2>&1 || need+=(qemu-system-x86)
command -v busybox >/dev/null 2>&1 || need+=(busybox-static)
if [ ${#need[@]} -eq 0 ]; then
  echo "skillgraph: system packages present (bubblewrap, PostgreSQL, python3-venv, tmux, qemu-system-x86, busybox)" >&2
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing system packages: ${need[*]} (install them with your package manager)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
progress() { node "$(dirname "$0")/progress.mjs" "$@"; }
progress "updating the Debian package lists (apt-get update)" bash -c 'apt-get update -qq >/dev/null 2>&1 || true'
progress "installing Debian packages: ${need[*]} (apt-get install)" \
  bash -c 'apt-get install -y -qq --no-install-recommends "$@" >/dev/null' apt-get "${need[@]}"
