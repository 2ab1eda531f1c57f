import subprocess, time, statistics, os, sys
base = "--unshare-all --die-with-parent --new-session --clearenv --cap-drop ALL --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache --proc /proc --dev /dev --tmpfs /tmp --bind /tmp/ee/ws /workspace".split()
stubs = []
for p in "sudo su doas pkexec chroot nsenter unshare mount umount bwrap reboot shutdown poweroff halt mkfs kill killall pkill runuser setpriv capsh prlimit".split():
    for d in ["/usr/local/bin", "/usr/bin", "/usr/sbin"]:
        f = os.path.join(d, p)
        if os.path.exists(f):
            stubs += ["--ro-bind", "/tmp/ee/denied-stub", os.path.realpath(f)]
stubs_unique = []
seen = set()
for i in range(0, len(stubs), 3):
    if stubs[i+2] not in seen: seen.add(stubs[i+2]); stubs_unique += stubs[i:i+3]
guardbind = ["--ro-bind", "/tmp/ee/guard-variant", "/.guard"]
caps = ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP"]
guard = ["/.guard", "--exec", "/usr", "--"]
tail = ["--remount-ro", "/", "--"]
variants = {
  "plain bwrap": ["bwrap", *base, *tail, "/usr/bin/true"],
  "(a0) + %d stubs" % (len(stubs_unique)//3): ["bwrap", *base, *stubs_unique, *tail, "/usr/bin/true"],
  "(d) + Landlock exec only": ["bwrap", *base, *guardbind, "--setenv", "GUARD_LANDLOCK_ONLY", "1", *tail, *guard[:3], "--", "/usr/bin/true"],
  "(a) stubs + Landlock + noexec + memfd": ["bwrap", *base, *caps, *stubs_unique, "--ro-bind", "/tmp/ee/guard-real", "/.guard", *tail, "/.guard", "--exec", "/usr", "--", "/usr/bin/true"],
  "(c) seccomp user-notif supervisor": ["/tmp/ee/sup", "bwrap", *base, *tail, "/usr/bin/true"],
}
times = {k: [] for k in variants}
for n in range(30):
    for k, argv in variants.items():
        t = time.perf_counter(); r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); d = time.perf_counter() - t
        if r.returncode != 0: print(k, "FAILED", r.stderr[:300]); sys.exit(1)
        times[k].append(d * 1000)
for k, v in times.items():
    print(f"{k:45s} median {statistics.median(v):6.2f} ms  (min {min(v):6.2f}, max {max(v):6.2f}, n={len(v)})")
