#!/bin/sh
# Builds the exec-enforcement helpers of the bubblewrap executor (exec-guard, denied-stub, exec-gate, exec-broker,
# loader-shim) into native/build/.
# Run at install time (the package's `install` script) and by scripts/bootstrap.sh. Off Linux there is nothing to
# build. On Linux a missing compiler or a failed build is an error: the executor refuses `execEnforcement` without the
# helpers rather than run commands unenforced. SKILLGRAPH_SKIP_NATIVE=1 skips the build (enforcement then cannot be
# turned on).
set -eu
cd "$(dirname "$0")"
if [ "$(uname -s)" != Linux ]; then
  echo "@skillgraph/shell: not Linux, the exec-enforcement helpers are not built" >&2
  exit 0
fi
if [ "${SKILLGRAPH_SKIP_NATIVE:-}" = 1 ]; then
  echo "@skillgraph/shell: SKILLGRAPH_SKIP_NATIVE=1, the exec-enforcement helpers are not built" >&2
  exit 0
fi
compiler="${CC:-}"
if [ -z "$compiler" ]; then
  for candidate in cc gcc clang; do
    if command -v "$candidate" >/dev/null 2>&1; then compiler=$candidate; break; fi
  done
fi
if [ -z "$compiler" ]; then
  echo "@skillgraph/shell: cannot build the exec-enforcement helpers: no C compiler (install gcc, or set CC; SKILLGRAPH_SKIP_NATIVE=1 skips them and leaves exec enforcement unavailable)" >&2
  exit 1
fi
mkdir -p build
for program in exec-guard denied-stub exec-gate exec-broker; do
  # static: the helpers run inside the sandbox before (exec-guard) or instead of (denied-stub) any library is trusted
  if ! "$compiler" -O2 -Wall -Wextra -static -o "build/$program.tmp" "$program.c" 2>"build/$program.log" &&
     ! "$compiler" -O2 -Wall -Wextra -o "build/$program.tmp" "$program.c" 2>"build/$program.log"; then
    echo "@skillgraph/shell: cannot build the exec-enforcement helper $program with $compiler:" >&2
    cat "build/$program.log" >&2
    exit 1
  fi
  mv "build/$program.tmp" "build/$program"
done
# the loader shim stands in for the dynamic loader, so it uses no libc and no relocations, and loads anywhere (PIE);
# it is written for x86-64 (elsewhere allow lists at exec time are refused with a message; the rest works)
if [ "$(uname -m)" != "x86_64" ]; then
  echo "@skillgraph/shell: built the exec-enforcement helpers in $(pwd)/build (no loader-shim on $(uname -m))" >&2
  exit 0
fi
if ! "$compiler" -O2 -Wall -Wextra -nostdlib -static-pie -fPIE -fno-stack-protector -ffreestanding -fno-builtin \
     -fcf-protection=none -o build/loader-shim.tmp loader-shim.c 2>build/loader-shim.log; then
  echo "@skillgraph/shell: cannot build the exec-enforcement helper loader-shim with $compiler:" >&2
  cat build/loader-shim.log >&2
  exit 1
fi
mv build/loader-shim.tmp build/loader-shim
echo "@skillgraph/shell: built the exec-enforcement helpers in $(pwd)/build" >&2
