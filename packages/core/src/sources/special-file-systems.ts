import { readFileSync, statSync } from "node:fs";

/** Folders whose trees are kernel interfaces, not files: never walked for skills (endless, or blocking, or both). */
export const SPECIAL_FOLDERS = ["/proc", "/sys", "/dev"] as const;

let devices: ReadonlySet<bigint> | undefined;

/** True when `path` (absolute, resolved) is `/proc`, `/sys`, `/dev` or inside one of them. */
export function isSpecialPath(path: string): boolean {
  return SPECIAL_FOLDERS.some((folder) => path === folder || path.startsWith(`${folder}/`));
}

/**
 * The device numbers (`st_dev`) of every virtual file system mounted at or below `/proc`, `/sys` and `/dev` (procfs,
 * sysfs, devtmpfs, cgroup, debugfs, /dev/shm...), read once from `/proc/self/mountinfo` without touching the mount points
 * (a stat could trigger an automount). Where mountinfo is missing, the devices of the three folders themselves. A
 * folder on one of these devices is skipped however it was reached (a symlink, a bind mount, a source root).
 */
export function specialDevices(): ReadonlySet<bigint> {
  if (devices) return devices;
  const found = new Set<bigint>();
  try {
    for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
      // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw": field 3 major:minor, field 5 mount point.
      const fields = line.split(" ");
      const mountPoint = fields[4]?.replace(/\\040/g, " ");
      const numbers = /^(\d+):(\d+)$/.exec(fields[2] ?? "");
      // Only virtual file systems (major 0): a disk bind-mounted there (a container's /dev/termination-log) shares its
      // device number with the rest of that disk, where skills may well live.
      if (mountPoint !== undefined && numbers && numbers[1] === "0" && isSpecialPath(mountPoint))
        found.add(makeDevice(BigInt(numbers[1]!), BigInt(numbers[2]!)));
    }
  } catch {
    // no /proc: fall back to the folders' own devices
  }
  if (found.size === 0) {
    for (const folder of SPECIAL_FOLDERS) {
      try {
        found.add(statSync(folder, { bigint: true }).dev);
      } catch {
        // not there: nothing to skip
      }
    }
  }
  devices = found;
  return devices;
}

/** Linux's `makedev`: how the kernel packs major and minor into the `st_dev` that stat returns. */
function makeDevice(major: bigint, minor: bigint): bigint {
  return (minor & 0xffn) | ((major & 0xfffn) << 8n) | ((minor & ~0xffn) << 12n) | ((major & ~0xfffn) << 32n);
}
