import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Writable } from "node:stream";
import { withLimitVerdict, type SettlingGroup } from "./cgroup-limit-verdict.js";
import type { CgroupHost } from "./cgroup-host.js";
import { openCommandCgroupOffLoop, type CommandCgroup } from "./command-cgroup.js";
import type { CommandLimits } from "./command-limits.js";
import type { ExecutionRequest, RunningCommand } from "./executor-types.js";
import { RUN_MARKER_ENV, trackGroup } from "./process-tree.js";
import { superviseCommand, type SpawnSpec } from "./spawn-command.js";
import { CLOSE_INHERITED, startPrefix, ulimitCommands, ulimitExact } from "./start-prefix.js";

/**
 * Commands started with no fork of this process and no cgroup move on their path. Forking this process blocks its
 * event loop for milliseconds (its page tables are copied); moving a process into a cgroup makes the kernel wait for
 * an RCU grace period (about 10 ms on this kind of machine, cgroup v1 and v2 alike), and a process forked by one
 * already inside is born inside. So the next command's launcher is started ahead: a `bash` waiting on a pipe, moved
 * (off the event loop) into a group of its own with the command's limits where the executor has cgroups (made for it,
 * or an emptied one kept for reuse), shortly after the previous command ended (an agent's next command comes after a
 * model call), at once when commands come back to back, or while one runs longer than 100 ms; a command that finds
 * none ready arms one and waits for its move. When the command comes, its cwd, environment and
 * argv (`bwrap …`) are written to the launcher's own unnamed file and a go byte to the pipe; the launcher does what
 * the start prefix does (start-prefix.ts: the rlimits, no descriptor but 0-2) and execs it: same pid, same process
 * group, same parent (so `--die-with-parent` still points at this process), already in its group before it forks
 * anything. bwrap, not bash, then execs the user's command, so how a program is found and started inside the sandbox
 * does not change. A group holds one command at a time: once its command's processes are gone (and it is charged with
 * little memory) it is kept for a later launcher, its limit counters read against what they were when it was handed
 * out; else it is removed. Making and removing a group takes the kernel's cgroup lock, which a move holds through its
 * grace period: a group reused is a launcher moved sooner.
 */

/**
 * Launchers kept ready: two, so a command that comes right after another (no model call between) still finds one
 * already in its group while the replacement of the one used is armed.
 */
const LAUNCHERS_READY = 2;
/** Groups kept for reuse once their command ended (more are removed). */
const GROUPS_KEPT = LAUNCHERS_READY + 2;
/** How long a command runs before the next launcher is armed while it still runs (else: after it ended). */
const ARM_DURING_MS = 100;
/** How long after a command's end the next launcher is armed: after the caller's collection, in the model call's time. */
const ARM_AFTER_MS = 25;

/** Last element of the launcher's input: input cut short (this process died while writing) runs nothing. */
const END = "skillgraph-launch-end";
/** What fd 3 carries once the launcher's input file is written and it is in its group: no byte, no command. */
const GO = "1";
/** Linux's O_TMPFILE (with O_DIRECTORY, whose value differs by architecture). */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/** An unnamed file for one launcher's input (closed when both ends close it), or undefined where none can be made. */
function openInputFile(): number | undefined {
  for (const folder of [tmpdir(), "/dev/shm"]) {
    try {
      return openSync(folder, constants.O_RDWR | O_TMPFILE, 0o600);
    } catch {
      // this file system has no unnamed files: the next, or input through fd 3
    }
  }
  return undefined;
}

/**
 * Reads `cwd, n, n × NAME=VALUE, argv…, END` (NUL-separated), then execs the argv there with that environment, after
 * doing what the executor's start prefix does (start-prefix.ts: the rlimits, no descriptor but 0-2). With `inputFd` 4
 * (a file of its own), it first waits for the go byte on fd 3: bash reads a file in blocks, where from a pipe or a
 * socket it reads one byte per system call (a sandbox's argv is some 3 kB: milliseconds of CPU).
 */
function launcherScript(limits: CommandLimits | undefined, inputFd: 3 | 4): string {
  return [
    ...(inputFd === 4 ? [`read -r -n 1 -u 3 go && [ "$go" = ${GO} ] || exit 125`] : []),
    `mapfile -d '' -t a <&${inputFd} && [ "\${#a[@]}" -gt 3 ] && [ "\${a[-1]}" = ${END} ] || exit 125`,
    CLOSE_INHERITED,
    "unset 'a[-1]'",
    'cd -- "${a[0]}" || exit 125',
    "n=${a[1]}",
    'for ((i = 2; i < n + 2; i++)); do export "${a[i]}"; done',
    ...(limits ? [ulimitCommands(limits)] : []),
    'exec "${a[@]:n+2}"',
  ].join("\n");
}

/** The bash features the launcher needs (mapfile -d, negative indices), checked once per bash. */
const PROBE = `mapfile -d '' -t a < <(printf 'x\\0y\\0') && [ "\${a[-1]}" = y ] && unset 'a[-1]' && [ "\${#a[@]}" = 1 ]`;

interface Armed {
  child: ChildProcessWithoutNullStreams;
  /** This process's end of the launcher's input file (fd 4 there), or undefined: input through fd 3. */
  inputFile: number | undefined;
  /**
   * The command's group once made (undefined: it could not be), absent where the executor has no cgroups (the launcher
   * is not moved).
   */
  group: Promise<CommandCgroup | undefined> | undefined;
  /** Settles once the move into the group is done (at once without one): true when it is in. */
  joined: Promise<boolean>;
  untrack: () => void;
  onIdleExit: () => void;
}

/** Options of {@link createArmedLauncher}. */
export interface ArmedLauncherOptions {
  bashPath: string;
  /** Where each launcher's group is made; absent (and no `openGroup`): launchers without groups. */
  host?: CgroupHost;
  /**
   * The executor's limits (absent: none): the launcher does what the argv's start prefix does itself, so that prefix
   * is dropped.
   */
  limits?: CommandLimits;
  /**
   * Makes the group of one launcher (`runId` names it), off the event loop; undefined when it cannot be made. @default
   * a group under `host` with the limits ({@link openCommandCgroupOffLoop}); the cgroup v2 tests pass groups made on a
   * mount without the memory and pids controllers
   */
  openGroup?: (runId: string) => Promise<CommandCgroup | undefined>;
  /**
   * Opens the unnamed file a launcher reads its command from; undefined: through its pipe instead. @default
   * {@link openInputFile}; the tests pass one that answers undefined, as on a temporary folder without O_TMPFILE
   */
  openInput?: () => number | undefined;
}

/** Starts commands through launchers armed ahead; `launch` answers undefined when none is armed (start it as before). */
export interface ArmedLauncher {
  launch(spec: SpawnSpec, request: ExecutionRequest): RunningCommand | undefined;
}

const probed = new Map<string, boolean>();

/**
 * A group being made, as the limit verdict reads it: settled once made, then handed back (`giveBack`). One that could
 * not be made counted nothing: its launcher ran nothing (no go byte without the move).
 */
function onceMade(
  group: Promise<CommandCgroup | undefined>,
  giveBack: (group: CommandCgroup) => Promise<void>,
): SettlingGroup {
  return {
    settle: async () => (await group)?.settle() ?? { oomKills: 0, refusedForks: 0 },
    release: async () => {
      const made = await group;
      if (made) await giveBack(made);
    },
  };
}

function bashCanLaunch(bashPath: string): boolean {
  let known = probed.get(bashPath);
  if (known === undefined) {
    const probe = spawnSync(bashPath, ["--noprofile", "--norc", "-c", PROBE], { env: {}, timeout: 5_000 });
    known = probe.status === 0;
    probed.set(bashPath, known);
  }
  return known;
}

/** Holds (or releases) this process's event loop for a launcher's process and pipes. */
function holdLoop(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  for (const handle of [child, ...child.stdio]) {
    const target = handle as { ref?: () => void; unref?: () => void } | null;
    if (hold) target?.ref?.();
    else target?.unref?.();
  }
}

/** Writes a launcher's whole input at the start of its file; false when it could not (the launcher then runs nothing). */
function writeInput(file: number, data: string): boolean {
  const bytes = Buffer.from(data);
  try {
    return writeSync(file, bytes, 0, bytes.length, 0) === bytes.length;
  } catch {
    return false;
  }
}

/** Closes this process's end of a launcher's input file (once). */
function closeInput(entry: Armed): void {
  if (entry.inputFile === undefined) return;
  try {
    closeSync(entry.inputFile);
  } catch {
    // closed already
  }
  entry.inputFile = undefined;
}

/**
 * A launcher source for one executor, or undefined when bash cannot run the launcher here (the executor then starts
 * every command as before).
 */
export function createArmedLauncher(options: ArmedLauncherOptions): ArmedLauncher | undefined {
  const { host, limits } = options;
  if ((limits && !ulimitExact(limits)) || !bashCanLaunch(options.bashPath)) return undefined;
  const scripts = { 3: launcherScript(limits, 3), 4: launcherScript(limits, 4) };
  const prefix = startPrefix(limits, options.bashPath);
  // groups hold the limits: none without limits
  const openGroup = !limits
    ? undefined
    : (options.openGroup ?? (host ? (runId: string) => openCommandCgroupOffLoop(host, limits, runId) : undefined));
  /** Launchers ready (or moving into their groups), oldest first: at most LAUNCHERS_READY. */
  const armed: Armed[] = [];
  /**
   * Groups whose command ended, emptied, for the next launchers, oldest first (taken in turn: none waits behind
   * groups kept after it; see CommandCgroup.recycle).
   */
  const kept: CommandCgroup[] = [];
  let disabled = false;
  /** Stops launchers (after any failure of theirs: commands start as before) and removes the groups kept. */
  const disable = () => {
    disabled = true;
    for (const group of kept.splice(0)) void group.release();
  };
  /** Keeps a group whose command ended for a later launcher, or removes it. */
  const giveBack = async (group: CommandCgroup) => {
    if (disabled || kept.length >= GROUPS_KEPT) return group.release();
    if (!(await group.recycle())) return; // removed
    if (disabled || kept.length >= GROUPS_KEPT) return group.release();
    kept.push(group);
  };
  /** The arming planned for after the last command (see ARM_AFTER_MS). */
  let planned: NodeJS.Timeout | undefined;
  /** Whether the planned arming runs as soon as the caller's continuation has (none was left). */
  let plannedSoon = false;
  /** When the last command ended. */
  let lastEnded = -Infinity;
  /**
   * Whether commands come back to back (the last one came within ARM_AFTER_MS of the end of the one before: no model
   * call between): launchers are then armed at once, two ahead, so each has the time of two commands to be moved.
   */
  let burst = false;

  const discard = (entry: Armed) => {
    const at = armed.indexOf(entry);
    if (at >= 0) armed.splice(at, 1);
    entry.untrack();
    closeInput(entry);
    try {
      process.kill(-(entry.child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
    void entry.group?.then((group) => group?.release());
  };

  const arm = () => {
    clearTimeout(planned);
    planned = undefined;
    if (disabled || armed.length >= LAUNCHERS_READY) return;
    const inputFile = (options.openInput ?? openInputFile)();
    const child = spawn(
      options.bashPath,
      ["--noprofile", "--norc", "-c", scripts[inputFile === undefined ? 3 : 4], "skillgraph-launch"],
      {
        cwd: "/",
        env: { PATH: "/usr/bin:/bin", [RUN_MARKER_ENV]: `launcher-${process.pid}` },
        detached: true,
        stdio: ["pipe", "pipe", "pipe", "pipe", ...(inputFile === undefined ? [] : [inputFile])],
      },
    ) as ChildProcessWithoutNullStreams;
    child.on("error", () => undefined);
    if (!child.pid) {
      if (inputFile !== undefined) closeSync(inputFile);
      disable();
      return;
    }
    holdLoop(child, false);
    const pid = child.pid;
    // the group is made and the launcher moved into it off the event loop: both can wait on the kernel for ms
    const group = !openGroup
      ? undefined
      : kept.length > 0
        ? Promise.resolve(kept.shift())
        : openGroup(`launch-${randomUUID()}`).catch(() => undefined);
    const entry: Armed = {
      child,
      inputFile,
      group,
      joined: group ? group.then((made) => (made ? made.join(pid) : false)) : Promise.resolve(true),
      untrack: trackGroup(pid),
      // a launcher that ends before its command came (killed from outside): stop arming rather than respawn in a loop
      onIdleExit: () => {
        disable();
        discard(entry);
      },
    };
    child.once("exit", entry.onIdleExit);
    armed.push(entry);
    void (async () => {
      if (await entry.joined) return;
      disable();
      // a launcher already taken gets no command (it exits 125) and is released with its command
      if (armed.includes(entry)) discard(entry);
    })();
    // one launcher at a time (each is a fork of this process): the next, if still short, a little later
    armLater();
  };

  /**
   * Arms the next launcher a little later (an unref'd timer): after a command's caller has had its result. With none
   * left, or commands back to back, as soon as the caller's continuation has run: a command that follows at once would
   * otherwise arm one on its own path, or meet its launcher still being moved.
   */
  const armLater = () => {
    if (disabled || armed.length >= LAUNCHERS_READY) return;
    const soon = armed.length === 0 || burst;
    if (planned && !(soon && !plannedSoon)) return;
    clearTimeout(planned);
    planned = setTimeout(arm, soon ? 0 : ARM_AFTER_MS);
    planned.unref();
    plannedSoon = soon;
  };

  arm();
  return {
    launch(spec, request) {
      burst = performance.now() - lastEnded < ARM_AFTER_MS;
      // none left (commands back to back, or alongside): arm one now; the command waits for its move off the event loop
      if (armed.length === 0) arm();
      const entry = armed[0];
      if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) return undefined;
      const env = Object.entries(spec.env).map(([name, value]) => `${name}=${value}`);
      const argv = [spec.file, ...spec.args];
      // the launcher does what the start prefix does (limits, descriptors): one exec less on the command's path
      if (!prefix.every((part, index) => argv[index] === part)) return undefined;
      const input = [spec.cwd, String(env.length), ...env, ...argv.slice(prefix.length), END];
      if (input.some((part) => part.includes("\0"))) return undefined;
      const started = performance.now();
      const data = `${input.join("\0")}\0`;
      const viaFile = entry.inputFile !== undefined;
      // a file that cannot take the command (a full disk): launchers stop (as on any other failure of theirs), this one
      // is dropped and the command starts as before
      if (entry.inputFile !== undefined && !writeInput(entry.inputFile, data)) {
        disable();
        discard(entry);
        return undefined;
      }
      closeInput(entry);
      armed.shift();
      entry.child.removeListener("exit", entry.onIdleExit);
      holdLoop(entry.child, true);
      // a launcher taken before its move finished: the command is handed over once it is in its group (never outside:
      // if the move failed, the launcher gets no command and exits 125)
      const control = entry.child.stdio[3] as unknown as Writable;
      void (async () => {
        const ready = await entry.joined;
        control.end(ready ? (viaFile ? GO : data) : undefined);
      })();
      // the result carries what the kernel counted against the group's limits, read before the group is removed
      const supervised = superviseCommand(entry.child, request, { started, contained: spec.contained });
      const running =
        entry.group && limits ? withLimitVerdict(supervised, onceMade(entry.group, giveBack), limits) : supervised;
      // the next launcher is armed once this command has ended, so its start (a fork of this process, 2-10 ms of its
      // event loop, then bash starting) neither competes with a short command for the CPU nor delays the caller; a
      // command still running after ARM_DURING_MS has it armed meanwhile, for a command started alongside. When this
      // command took the last one, or commands come back to back, at once, beside it: the fork overlaps the sandbox's
      // start on the other core and the move has this command's time to finish (the next one's too: two are kept
      // ahead then), where after it the next command meets both
      const during = setTimeout(arm, armed.length === 0 || burst ? 0 : ARM_DURING_MS);
      during.unref();
      void running.result.finally(() => {
        lastEnded = performance.now();
        clearTimeout(during);
        entry.untrack();
        armLater();
      });
      return running;
    },
  };
}
