#!/bin/bash
# The measurements of docs/design/exec-enforcement.md, run by hand (root or not, Linux with bwrap and gcc):
# builds the helpers and the prototypes in /tmp/ee, prints which probe runs under each mechanism, then the per-call
# cost table (medians of 30, variants alternated) and the 200-start table (medians of 10).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
native="$here/../../packages/shell/native"
mkdir -p /tmp/ee/ws /tmp/ee/tools
cd /tmp/ee
gcc -O2 -static -o guard-real "$native/exec-guard.c"
# the Landlock-only variant: exec-guard without its remounts and without the memfd filter
sed -e 's/  remount_noexec_outside(exec_dirs, exec_count);/  if (!getenv("GUARD_LANDLOCK_ONLY")) remount_noexec_outside(exec_dirs, exec_count);/' \
  -e 's/  if (unshare(CLONE_NEWNS) != 0)/  if (!getenv("GUARD_LANDLOCK_ONLY") \&\& unshare(CLONE_NEWNS) != 0)/' \
  -e 's/  if (mount(NULL, "\/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)/  if (!getenv("GUARD_LANDLOCK_ONLY") \&\& mount(NULL, "\/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)/' \
  -e 's/  deny_memfd();/  if (!getenv("GUARD_LANDLOCK_ONLY")) deny_memfd();/' \
  "$native/exec-guard.c" > guard-variant.c
gcc -O2 -static -o guard-variant guard-variant.c
gcc -O2 -static -o denied-stub "$native/denied-stub.c"
gcc -O2 -o sup "$here/notify-supervisor.c"
gcc -O2 -o marker "$here/marker.c"
cp marker tools/denied-tool
cp "$here/probes.sh" probes.sh
BASE=(--unshare-all --die-with-parent --new-session --clearenv --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --tmpfs /tmp --setenv PATH /usr/bin:/bin)
COMMON=(--ro-bind /tmp/ee/tools /opt/tools --bind /tmp/ee/ws /workspace --ro-bind /tmp/ee/probes.sh /probes.sh --ro-bind /tmp/ee/guard-variant /.guard)
STUB=(--ro-bind /tmp/ee/denied-stub /opt/tools/denied-tool)
CAPS=(--cap-drop ALL --cap-add CAP_SYS_ADMIN --cap-add CAP_SETPCAP)
clean() { find ws -type f ! -name copy -delete; cp marker ws/copy; }
clean
echo "== plain"; bwrap "${BASE[@]}" --cap-drop ALL "${COMMON[@]}" --remount-ro / -- /bin/bash /probes.sh; clean
echo "== (a0) stubs only"; bwrap "${BASE[@]}" --cap-drop ALL "${COMMON[@]}" "${STUB[@]}" --remount-ro / -- /bin/bash /probes.sh; clean
echo "== (d) Landlock only"; bwrap "${BASE[@]}" --cap-drop ALL "${COMMON[@]}" --setenv GUARD_LANDLOCK_ONLY 1 --remount-ro / -- /.guard --exec /usr --exec /opt/tools -- /bin/bash /probes.sh; clean
echo "== (a) stubs + Landlock + noexec + memfd"; bwrap "${BASE[@]}" "${CAPS[@]}" "${COMMON[@]}" "${STUB[@]}" --remount-ro / -- /.guard --exec /usr --exec /opt/tools -- /bin/bash /probes.sh; clean
python3 "$here/measure.py"
sed -e 's|"/usr/bin/true"\]|"/bin/sh", "-c", "for i in $(seq 200); do /usr/bin/true; done"]|g' -e 's/range(30)/range(10)/' "$here/measure.py" > measure-loop.py
python3 measure-loop.py
