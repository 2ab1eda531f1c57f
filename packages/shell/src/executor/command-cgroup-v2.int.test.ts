import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createArmedLauncher } from "./armed-launcher.js";
import { sweepStaleGroups } from "./cgroup-host.js";
import { commandGroupAt } from "./command-cgroup.js";
import { resolveLimits } from "./command-limits.js";
import { startPrefix } from "./start-prefix.js";
import type { ExecutionRequest } from "./executor-types.js";
import { findMarkedProcesses } from "./process-tree.js";

// The cgroup v2 paths (one group per command, cgroup.procs, cgroup.kill, cgroup.events) on a real cgroup2 mount. On a
// hybrid host the memory and pids controllers stay with v1, so the groups here carry no limits: what is checked is
// placement (self-join, adoption of a started tree, the armed launcher), that a command whose join fails runs nothing,
// and removal (cgroup.kill kills what is left, the group goes). The limits themselves are checked on the host's own
// cgroups by test/security/command-memory.int.test.ts.

/** Where this process's own v2 group is, if a cgroup2 file system is mounted (at its root) and we may make groups. */
function ownV2Group(): string | undefined {
  if (process.platform !== "linux") return undefined;
  const mount = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" "))
    .find((fields) => fields[fields.indexOf("-") + 1] === "cgroup2" && fields[3] === "/");
  const where = /^0::(.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
  if (!mount?.[4] || where === undefined) return undefined;
  const own = path.join(mount[4], where);
  try {
    const probe = path.join(own, `skillgraph-${process.pid}-v2probe`);
    mkdirSync(probe);
    rmdirSync(probe);
    return own;
  } catch {
    return undefined;
  }
}

const parent = ownV2Group();
const made: string[] = [];
// groups an earlier run of this file left when it was killed (the product sweeps only the hierarchy it uses)
if (parent !== undefined) sweepStaleGroups(parent);

/** A fresh v2 group under our own, with no controllers enabled (none need be). */
function freshGroup(runId: string = randomUUID()): string {
  const folder = path.join(parent as string, `skillgraph-${process.pid}-v2test-${runId}`);
  mkdirSync(folder);
  made.push(folder);
  return folder;
}

/** The v2 group a process is in, as a path under the cgroup2 mount. */
function v2GroupOf(pid: number | string): string {
  return /^0::(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, "utf8"))?.[1] ?? "";
}

const procsOf = (folder: string) =>
  readFileSync(path.join(folder, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
const populated = (folder: string) => /populated 1/.test(readFileSync(path.join(folder, "cgroup.events"), "utf8"));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the first `count` lines the child writes to stdout. */
function lines(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const got = text.split("\n");
      if (got.length > count) resolve(got.slice(0, count));
    });
    child.once("exit", () => reject(new Error(`exited after ${JSON.stringify(text)}`)));
  });
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });

/** Waits (bounded: 5 s) until the folder is gone, as a group is once its release has removed it. */
async function gone(folder: string): Promise<boolean> {
  for (let wait = 0; wait < 50 && existsSync(folder); wait += 1) await pause(100);
  return !existsSync(folder);
}

afterAll(async () => {
  // the launchers these tests armed and did not use (the last armed shortly after the last command ended): ended by
  // their pid, then every group made here is removed
  await pause(300);
  for (const pid of await findMarkedProcesses(`launcher-${process.pid}`)) process.kill(pid, "SIGKILL");
  for (const folder of made) {
    for (let attempt = 0; attempt < 20 && existsSync(folder); attempt += 1) {
      try {
        rmdirSync(folder);
      } catch {
        await pause(50); // its last process is still exiting
      }
    }
  }
});

describe.skipIf(parent === undefined)("command cgroups on cgroup v2 (placement and removal)", () => {
  it("self-join: the command and all it starts run in the group; release kills them and removes it", async () => {
    const folder = freshGroup();
    const group = commandGroupAt([folder], 2);
    const child = spawn(group.joinPrefix[0] as string, [
      ...group.joinPrefix.slice(1),
      "/bin/sh",
      "-c",
      "cat /proc/self/cgroup | grep '^0::'; sleep 30 & sleep 30 & echo started; wait",
    ]);
    const [line, started] = await lines(child, 2);
    expect(line).toBe(`0::${v2GroupOf(process.pid) === "/" ? "" : v2GroupOf(process.pid)}/${path.basename(folder)}`);
    expect(started).toBe("started");
    // the shell and its two sleeps, nothing else and nothing outside
    expect(procsOf(folder)).toHaveLength(3);
    expect(procsOf(folder)).toContain(child.pid);
    expect(populated(folder)).toBe(true);
    await group.release();
    expect(await exited(child)).toEqual({ code: null, signal: "SIGKILL" });
    expect(existsSync(folder)).toBe(false);
  });

  it("adoption: a tree already started outside is moved whole into the group", async () => {
    const folder = freshGroup();
    const group = commandGroupAt([folder], 2);
    // each shell says so once it has forked its sleep: adoption starts only when the whole tree is there
    const child = spawn("/bin/sh", ["-c", "sleep 30 & sh -c 'sleep 31 & echo inner; wait' & echo started; wait"]);
    await lines(child, 2);
    expect(procsOf(folder)).toEqual([]);
    expect(group.adopt(child.pid as number)).toBe(true);
    // sh, sleep 30, sh -c, sleep 31
    const inside = procsOf(folder);
    expect(inside).toHaveLength(4);
    for (const pid of inside) expect(v2GroupOf(pid)).toMatch(new RegExp(`/${path.basename(folder)}$`));
    await group.release();
    expect(await exited(child)).toEqual({ code: null, signal: "SIGKILL" });
    expect(existsSync(folder)).toBe(false);
  });

  it("a command whose join fails does not run", async () => {
    const folder = freshGroup();
    const group = commandGroupAt([folder], 2);
    rmdirSync(folder);
    const child = spawn(group.joinPrefix[0] as string, [...group.joinPrefix.slice(1), "/bin/sh", "-c", "echo ran"]);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    expect(await exited(child)).toEqual({ code: 125, signal: null });
    expect(output).toBe("");
  });

  describe("armed launcher on v2", () => {
    const checked = resolveLimits(undefined);
    const limits = checked ? { ...checked, cgroups: undefined } : undefined;
    const bashPath = ["/usr/bin/bash", "/bin/bash"].find((candidate) => existsSync(candidate));
    const launcher = () =>
      createArmedLauncher({
        bashPath: bashPath as string,
        host: { version: 2, memoryParent: parent as string, pidsParent: parent as string },
        limits: limits!,
        openGroup: async (runId) => commandGroupAt([freshGroup(runId)], 2),
      });
    const request = (argv: string[], timeoutMs = 60_000): ExecutionRequest => {
      const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-v2-"));
      return {
        argv,
        cwd: workspaceDir,
        workspaceDir,
        env: {},
        timeoutMs,
        killGraceMs: 300,
        maxOutputBytes: 16_384,
        killAfterOutputBytes: 1 << 26,
        runId: randomUUID(),
      };
    };
    const spec = (job: ExecutionRequest) => ({
      file: startPrefix(limits, bashPath as string)[0] as string,
      args: [...startPrefix(limits, bashPath as string).slice(1), ...job.argv],
      cwd: job.cwd,
      env: { PATH: "/usr/bin:/bin", SKILLGRAPH_RUN_ID: job.runId },
    });

    it.skipIf(!limits || !bashPath)(
      "starts the command already in a fresh v2 group, and removes it after",
      async () => {
        const armed = launcher();
        expect(armed).toBeDefined();
        await pause(300);
        const job = request([
          "/bin/sh",
          "-c",
          "grep '^0::' /proc/self/cgroup; sh -c \"grep '^0::' /proc/self/cgroup\"",
        ]);
        const running = armed!.launch(spec(job), job);
        expect(running).toBeDefined();
        // before it has run anything, the command's first process is in a launcher's group
        const group = v2GroupOf(running!.pid);
        expect(group).toMatch(new RegExp(`/skillgraph-${process.pid}-v2test-launch-`));
        running!.closeStdin();
        const result = await running!.result;
        expect(result.exitCode).toBe(0);
        // the command and its child ran there
        expect(result.stdout).toBe(`0::${group}\n0::${group}\n`);
        const own = v2GroupOf(process.pid);
        expect(await gone(path.join(parent as string, group.slice(own === "/" ? 1 : own.length + 1)))).toBe(true);
      },
    );

    it.skipIf(!limits || !bashPath)("times out a command and kills its whole tree", async () => {
      const armed = launcher();
      await pause(300);
      const job = request(["/bin/sh", "-c", "sleep 30 & (trap '' TERM; sleep 31) & sleep 32"], 300);
      const running = armed!.launch(spec(job), job);
      expect(running).toBeDefined();
      const group = v2GroupOf(running!.pid);
      running!.closeStdin();
      const result = await running!.result;
      expect(result.timedOut).toBe(true);
      expect(await findMarkedProcesses(job.runId)).toEqual([]);
      const own = v2GroupOf(process.pid);
      expect(await gone(path.join(parent as string, group.slice(own === "/" ? 1 : own.length + 1)))).toBe(true);
    });
  });
});
