// A real Linux kernel with every cgroup controller on v2, booted under qemu (software emulation, no KVM needed) to run
// the per-command cgroup limit scenarios (test/support/cgroup-limit-scenarios.ts) or the cost measurement
// (test/support/cgroup-cost-scenario.ts) through the real executor: the mode is named on the kernel's command line
// (test/support/cgroup-v2-guest-protocol.ts), so one initramfs serves both. The same guest can also boot with memory
// and pids on cgroup v1, as a control for what emulation distorts. The kernel is Debian's (`linux-image-amd64`,
// fetched with `apt-get download`, never installed on the host); the initramfs is built here: busybox (mounts,
// power-off), this host's node, bash and util-linux programs with their shared libraries, and the guest's program
// (test/support/cgroup-v2-guest.ts) bundled by esbuild (which tsx brings). Both are cached under
// node_modules/.cache, keyed by the kernel package's version and by a hash of everything the initramfs holds.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { guestCommandLine, REPORT_MARK, type GuestRequest } from "./cgroup-v2-guest-protocol.js";
import { writeNewcArchive, type ArchiveEntry } from "./newc-archive.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "skillgraph-cgroup-v2-vm");
const GUEST_ENTRY = path.join(ROOT, "test", "support", "cgroup-v2-guest.ts");
/**
 * Host programs the guest needs besides busybox: the executor's (bash, prlimit, setpriv, unshare) and node, and the
 * cost measurement's command (`true`: the host's own, so the guest runs the same program as the host's calibration).
 */
const HOST_PROGRAMS = ["bash", "prlimit", "setpriv", "unshare", "true"];
/** busybox applets the init and the scenarios' commands use. */
const APPLETS = ["sh", "mount", "mkdir", "poweroff", "head", "sleep", "cat", "true", "rm", "ln", "dmesg"];
const LOCALE = "/usr/lib/locale/C.utf8";
const SEARCH = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];
/** The kernel command-line word that has the init mount memory and pids as cgroup v1 (the control), not v2. */
const V1_WORD = "skillgraph.cgroup=1";

/** What booting needs, ready on disk. */
export interface GuestImage {
  qemu: string;
  /** `qemu-system-x86_64 --version`'s first line. */
  qemuVersion: string;
  kernel: string;
  /** The Debian package and version the kernel came from. */
  kernelPackage: string;
  initramfs: string;
}

/** Why the guest cannot be prepared here (a missing program or package). */
export interface GuestMissing {
  missing: string;
}

const which = (name: string) => SEARCH.map((dir) => path.join(dir, name)).find((file) => existsSync(file));

function run(file: string, args: string[], cwd?: string): string {
  const done = spawnSync(file, args, { cwd, encoding: "utf8", timeout: 300_000, maxBuffer: 1 << 24 });
  if (done.status !== 0)
    throw new Error(`${file} ${args.join(" ")}: ${done.stderr || done.error?.message || done.status}`);
  return done.stdout;
}

/** Debian's current kernel for amd64: the package `linux-image-amd64` depends on, and its candidate version. */
function kernelPackage(): { name: string; version: string } {
  const name = /Depends: (linux-image-[^\s]+)/.exec(
    run("apt-cache", ["depends", "--important", "linux-image-amd64"]),
  )?.[1];
  const version = name && /Candidate: (\S+)/.exec(run("apt-cache", ["policy", name]))?.[1];
  if (!name || !version || version === "(none)") throw new Error("apt-cache names no kernel for linux-image-amd64");
  return { name, version };
}

/** The kernel image, fetched and extracted once per package version (only ./boot/vmlinuz-* is unpacked). */
function cachedKernel(): { file: string; label: string } {
  const { name, version } = kernelPackage();
  const label = `${name} ${version}`;
  const folder = path.join(CACHE, `kernel-${name}_${version.replace(/[^A-Za-z0-9.+~-]/g, "_")}`);
  const file = path.join(folder, "vmlinuz");
  if (existsSync(file)) return { file, label };
  const work = mkdtempSync(path.join(CACHE, "fetch-"));
  try {
    run("apt-get", ["download", `${name}=${version}`], work);
    const deb = readdirSync(work).find((entry) => entry.endsWith(".deb"));
    if (!deb) throw new Error(`apt-get download ${name}=${version} left no .deb`);
    const unpack = 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards "./boot/vmlinuz-*"';
    run("bash", ["-c", `set -o pipefail; ${unpack}`, "unpack", path.join(work, deb), work]);
    const image = readdirSync(path.join(work, "boot")).find((entry) => entry.startsWith("vmlinuz-"));
    if (!image) throw new Error(`${deb} holds no boot/vmlinuz-*`);
    mkdirSync(path.join(work, "kernel"));
    renameSync(path.join(work, "boot", image), path.join(work, "kernel", "vmlinuz"));
    try {
      renameSync(path.join(work, "kernel"), folder);
    } catch (error) {
      // another test file fetched the same kernel at the same time and renamed its folder first: use that one
      if (!existsSync(file)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { file, label };
}

/** Adds a host path to the archive as it is on the host: each symlink on the way (e.g. /lib64) stays a symlink. */
function addHostPath(entries: Map<string, ArchiveEntry>, hostPath: string): void {
  const parts = hostPath.split("/").filter(Boolean);
  for (let index = 0; index < parts.length; index += 1) {
    const current = `/${parts.slice(0, index + 1).join("/")}`;
    const stat = lstatSync(current);
    if (stat.isSymbolicLink()) {
      const target = readlinkSync(current);
      entries.set(current.slice(1), { kind: "symlink", target });
      const rest = parts.slice(index + 1);
      addHostPath(entries, path.join(path.resolve(path.dirname(current), target), ...rest));
      return;
    }
    if (stat.isDirectory()) {
      if (!entries.has(current.slice(1))) entries.set(current.slice(1), { kind: "dir" });
    } else entries.set(current.slice(1), { kind: "host-file", mode: stat.mode & 0o777, source: current });
  }
}

/** Adds a host folder and everything under it (the C.UTF-8 locale the executor's LC_ALL names). */
function addHostTree(entries: Map<string, ArchiveEntry>, folder: string): void {
  addHostPath(entries, folder);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const inside = path.join(folder, entry.name);
    if (entry.isDirectory()) addHostTree(entries, inside);
    else addHostPath(entries, inside);
  }
}

/** The shared libraries a program loads (absolute paths from `ldd`; none for a static program). */
function sharedLibraries(program: string): string[] {
  const done = spawnSync("ldd", [program], { encoding: "utf8" });
  if (done.status !== 0) return [];
  return [...done.stdout.matchAll(/(?:=> )?(\/\S+) \(0x/g)].map((match) => match[1] as string);
}

/** The part of esbuild's API used here (its types are not a dependency of the workspace root). */
interface EsbuildApi {
  buildSync(options: Record<string, unknown>): { outputFiles?: Array<{ text: string }> };
}

/** The guest's program and the product code it uses, as one ES module (esbuild comes with tsx). */
function guestBundle(): string {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
  const esbuild = fromTsx("esbuild") as EsbuildApi;
  const built = esbuild.buildSync({
    entryPoints: [GUEST_ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@skillgraph/source"],
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    write: false,
    logLevel: "silent",
  });
  return built.outputFiles?.[0]?.text ?? "";
}

function initScript(busybox: string, node: string): string {
  return `#!${busybox} sh
export PATH=/usr/local/bin:/usr/bin:/bin
${busybox} mount -t proc proc /proc
${busybox} mount -t sysfs sysfs /sys
${busybox} mount -t devtmpfs devtmpfs /dev
${busybox} mkdir -p /dev/shm
# as udev makes them on a running system (bash's process substitution reads /dev/fd/N)
${busybox} ln -s /proc/self/fd /dev/fd
${busybox} ln -s fd/0 /dev/stdin
${busybox} ln -s fd/1 /dev/stdout
${busybox} ln -s fd/2 /dev/stderr
${busybox} mount -t tmpfs tmpfs /dev/shm
${busybox} mount -t tmpfs tmpfs /tmp
if ${busybox} grep -q '${V1_WORD}' /proc/cmdline; then
  # the control: memory and pids on cgroup v1, mounted where a v1 host mounts them
  ${busybox} mount -t tmpfs cgroup /sys/fs/cgroup
  for controller in memory pids; do
    ${busybox} mkdir /sys/fs/cgroup/$controller
    ${busybox} mount -t cgroup -o $controller cgroup /sys/fs/cgroup/$controller
  done
  echo "guest: cgroup v1 hierarchies: $(${busybox} ls /sys/fs/cgroup)"
else
  ${busybox} mount -t cgroup2 cgroup2 /sys/fs/cgroup
  echo "+memory +pids" > /sys/fs/cgroup/cgroup.subtree_control
  echo "guest: cgroup2 controllers: $(${busybox} cat /sys/fs/cgroup/cgroup.subtree_control)"
fi
cd /
${node} /guest.mjs
${busybox} poweroff -f
`;
}

/** The initramfs for the current programs and code, built once per content hash. */
function cachedInitramfs(busybox: string, programs: readonly string[]): string {
  const node = process.execPath;
  const entries = new Map<string, ArchiveEntry>();
  for (const folder of ["proc", "sys", "dev", "tmp"]) entries.set(folder, { kind: "dir" });
  for (const program of [busybox, node, ...programs]) {
    addHostPath(entries, program);
    for (const library of sharedLibraries(program)) addHostPath(entries, library);
  }
  if (existsSync(LOCALE)) addHostTree(entries, LOCALE);
  if (!entries.has("bin")) entries.set("bin", { kind: "symlink", target: "usr/bin" });
  const binIsFolder = entries.get("bin")?.kind === "dir";
  for (const applet of APPLETS) {
    for (const folder of binIsFolder ? ["bin", "usr/bin"] : ["usr/bin"]) {
      if (!entries.has(`${folder}/${applet}`)) entries.set(`${folder}/${applet}`, { kind: "symlink", target: busybox });
    }
  }
  entries.set("init", { kind: "file", mode: 0o755, content: initScript(busybox, node) });
  entries.set("guest.mjs", { kind: "file", mode: 0o644, content: guestBundle() });
  const hash = createHash("sha256");
  for (const [name, entry] of entries) {
    hash.update(`${name}\0${JSON.stringify({ ...entry, content: undefined, source: undefined })}\0`);
    if (entry.kind === "file") hash.update(entry.content);
    if (entry.kind === "host-file") hash.update(readFileSync(entry.source));
  }
  const file = path.join(CACHE, `initramfs-${hash.digest("hex").slice(0, 24)}.cpio`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    writeNewcArchive(partial, entries);
    renameSync(partial, file);
  }
  // one image is kept (each is about 110 MB, and any change to the code it bundles makes a new one)
  for (const old of readdirSync(CACHE))
    if (/^initramfs-[0-9a-f]+\.cpio$/.test(old) && old !== path.basename(file)) rmSync(path.join(CACHE, old));
  return file;
}

/**
 * Fetches the kernel and builds the initramfs (both cached), or says what is missing here. What is not a missing
 * program or package (the guest's code does not bundle, the archive cannot be written) throws.
 */
export function prepareGuestImage(): GuestImage | GuestMissing {
  if (process.platform !== "linux" || process.arch !== "x64")
    return { missing: `not linux/x64 (${process.platform}/${process.arch})` };
  const qemu = which("qemu-system-x86_64");
  if (!qemu)
    return {
      missing:
        "qemu-system-x86_64 is not installed (Debian package qemu-system-x86; scripts/setup-system-deps.sh installs it)",
    };
  for (const tool of ["apt-cache", "apt-get", "dpkg-deb", "ldd"])
    if (!which(tool))
      return { missing: `${tool} is not installed (the guest's kernel comes from Debian's linux-image-amd64)` };
  const busybox = which("busybox");
  if (!busybox) return { missing: "busybox is not installed (Debian package busybox-static)" };
  const absent = HOST_PROGRAMS.filter((name) => !which(name));
  if (absent.length > 0) return { missing: `not installed: ${absent.join(", ")}` };
  let kernel: { file: string; label: string };
  try {
    mkdirSync(CACHE, { recursive: true, mode: 0o700 });
    kernel = cachedKernel();
  } catch (error) {
    return { missing: `no Debian kernel package: ${(error as Error).message}` };
  }
  const qemuVersion = run(qemu, ["--version"]).split("\n")[0] ?? "";
  const programs = HOST_PROGRAMS.map((name) => which(name) as string);
  const initramfs = cachedInitramfs(busybox, programs);
  return { qemu, qemuVersion, kernel: kernel.file, kernelPackage: kernel.label, initramfs };
}

/** How a boot ended: the guest powered off (qemu exited), or the hard timeout killed qemu. */
export interface BootOutcome<Report = unknown> {
  ending: "powered off" | "timed out";
  exitCode: number | null;
  elapsedMs: number;
  /** Everything the serial console printed (kernel messages, the init's lines, the report line). */
  console: string;
  /** The guest's report line, parsed (its shape is the mode's: the caller's `Report`), or why there is none. */
  report?: Report | { error: string };
}

/** What to boot the guest for: the mode and its parameters, and the hard timeout. */
export interface BootOptions {
  request: GuestRequest;
  timeoutMs: number;
  /** The guest's CPUs (each one a thread of qemu's multi-threaded emulation). @default 1 */
  cpus?: number;
  /**
   * Where the guest's memory and pids controllers are: 2 (every controller on v2, what the guest is for) or 1, the
   * same kernel and emulation with memory and pids on v1, as a control for figures that emulation distorts. @default 2
   */
  cgroupVersion?: 1 | 2;
}

/** Boots the guest for `request` and awaits qemu; kills it (SIGKILL) after `timeoutMs`, and says which happened. */
export function bootGuest<Report>(image: GuestImage, options: BootOptions): Promise<BootOutcome<Report>> {
  const { request, timeoutMs, cpus = 1, cgroupVersion = 2 } = options;
  const started = performance.now();
  const args = ["-machine", "q35", "-accel", "tcg", "-cpu", "max", "-smp", String(cpus), "-m", "1024", "-nodefaults"];
  args.push("-display", "none", "-serial", "stdio", "-no-reboot", "-kernel", image.kernel, "-initrd", image.initramfs);
  const cgroups = cgroupVersion === 2 ? "cgroup_no_v1=all" : V1_WORD;
  args.push("-append", `console=ttyS0 ${cgroups} panic=-1 quiet ${guestCommandLine(request)}`);
  const qemu = spawn(image.qemu, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  qemu.on("error", (error) => (output += `\n${image.qemu} did not start: ${error.message}\n`));
  qemu.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  qemu.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    qemu.kill("SIGKILL");
  }, timeoutMs);
  return new Promise((resolve) => {
    qemu.once("close", (code) => {
      clearTimeout(timer);
      const line = output.split(/\r?\n/).find((text) => text.startsWith(REPORT_MARK));
      let report: BootOutcome<Report>["report"];
      try {
        report = line ? (JSON.parse(line.slice(REPORT_MARK.length)) as BootOutcome<Report>["report"]) : undefined;
      } catch (error) {
        report = { error: `the report line is not JSON (${(error as Error).message})` };
      }
      resolve({
        ending: timedOut ? "timed out" : "powered off",
        exitCode: code,
        elapsedMs: Math.round(performance.now() - started),
        console: output,
        ...(report ? { report } : {}),
      });
    });
  });
}
