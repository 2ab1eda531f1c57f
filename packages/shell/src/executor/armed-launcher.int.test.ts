import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createBubblewrapExecutor } from "./bubblewrap-executor.js";
import { createArmedLauncher } from "./armed-launcher.js";
import { detectCgroupHost } from "./cgroup-host.js";
import type { CommandCgroup } from "./command-cgroup.js";
import { resolveLimits, type CommandLimits } from "./command-limits.js";
import { startPrefix } from "./start-prefix.js";
import type { CommandExecutor, ExecutionRequest } from "./executor-types.js";
import { createLocalExecutor } from "./local-executor.js";
import { findMarkedProcesses } from "./process-tree.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const limits = resolveLimits(undefined);
const host = detectCgroupHost();
const canSandbox = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

function request(argv: string[], overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-armed-"));
  return {
    argv,
    cwd: workspaceDir,
    workspaceDir,
    env: { GREETING: "hello there" },
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
    ...overrides,
  };
}

/** The memory cgroup (v1) or the unified one (v2) a process is in, as /proc/<pid>/cgroup says. */
function groupOf(pid: number): string {
  const lines = readFileSync(`/proc/${pid}/cgroup`, "utf8").split("\n");
  const line = lines.find((entry) => /^\d+:memory:/.test(entry)) ?? lines.find((entry) => entry.startsWith("0::"));
  return line?.slice(line.indexOf(":", line.indexOf(":") + 1) + 1) ?? "";
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The executors that start commands through armed launchers, and where each shows the command its folder. */
const executors = [
  {
    name: "bubblewrap",
    available: canSandbox,
    make: (executorLimits: CommandLimits) => createBubblewrapExecutor({ limits: executorLimits }),
    folderOf: () => "/workspace",
  },
  {
    name: "local",
    available: true,
    make: (executorLimits: CommandLimits): CommandExecutor => createLocalExecutor({ limits: executorLimits }),
    folderOf: (job: ExecutionRequest) => job.workspaceDir,
  },
];

describe.skipIf(!limits?.cgroups || "unavailable" in host).each(executors)(
  "armed launcher ($name with cgroups)",
  ({ name, available, make, folderOf }) => {
    const withGroups = () => make(limits!);

    it.skipIf(!available)(
      "starts each command already inside a group made for a launcher, and leaves no process in it when it ends",
      async () => {
        const executor = withGroups();
        const groups: string[] = [];
        for (let index = 0; index < 3; index += 1) {
          // the launcher is armed after each start: give it the time a model call would
          await pause(200);
          const running = executor.start(request(["/bin/sh", "-c", "read line; echo $line; sleep 30 &"]));
          // before the command has read anything, its first process is in a per-command group made for its launcher
          // (a command started directly is moved into a group named after its run instead)
          const group = groupOf(running.pid);
          expect(group).toContain(`/skillgraph-${process.pid}-launch-`);
          groups.push(group);
          running.write("done\n");
          running.closeStdin();
          const result = await running.result;
          expect(result.exitCode).toBe(0);
          expect(result.stdout).toBe("done\n");
        }
        // each group is removed, or kept for a later command's launcher: nothing of these commands is left in any (the
        // `sleep` each left behind is killed); a launcher armed since may wait in one
        const members = async () => {
          const waiting = new Set(await findMarkedProcesses(`launcher-${process.pid}`));
          return groups
            .flatMap((group) => [path.join("/sys/fs/cgroup/memory", group), path.join("/sys/fs/cgroup", group)])
            .filter((folder) => existsSync(folder))
            .flatMap((folder) => readFileSync(path.join(folder, "cgroup.procs"), "utf8").split("\n").filter(Boolean))
            .map(Number)
            .filter((pid) => !waiting.has(pid));
        };
        let left = await members();
        for (let wait = 0; wait < 50 && left.length > 0; wait += 1) {
          await pause(100);
          left = await members();
        }
        expect(left).toEqual([]);
      },
    );

    it.skipIf(!available)(
      "hands a group to a later command once its command's processes are gone, counting that command's limits afresh",
      async () => {
        const executor = make({ ...limits!, processes: 16 });
        await pause(200);
        // more forks than the group's process limit allows: the kernel refuses some, the verdict says so
        const first = executor.start(request(["/bin/sh", "-c", "for i in $(seq 40); do sleep 30 & done 2>/dev/null"]));
        const firstGroup = groupOf(first.pid);
        expect((await first.result).limitExceeded?.processes?.refusedForks).toBeGreaterThan(0);
        // later commands, a model call apart, until one is started in that group (bounded: 20 commands)
        let reused = false;
        for (let index = 0; index < 20 && !reused; index += 1) {
          await pause(100);
          const running = executor.start(request(["/bin/true"]));
          reused = groupOf(running.pid) === firstGroup;
          const result = await running.result;
          expect(result).toMatchObject({ exitCode: 0 });
          // the refused forks of the first command are not this command's
          expect(result.limitExceeded).toBeUndefined();
        }
        expect(reused, "no later command was started in the first command's group within 20 commands").toBe(true);
      },
    );

    it.skipIf(!available)("does not hand on a group still charged with a command's memory", async () => {
      const executor = withGroups();
      await pause(200);
      // 48 MiB written to the workspace stay charged to the group as page cache once the command has ended
      const job = request(["/bin/sh", "-c", "head -c 50331648 /dev/zero > big"]);
      const first = executor.start(job);
      const firstGroup = groupOf(first.pid);
      expect(await first.result).toMatchObject({ exitCode: 0 });
      try {
        for (let index = 0; index < 10; index += 1) {
          await pause(100);
          const running = executor.start(request(["/bin/true"]));
          expect(groupOf(running.pid)).not.toBe(firstGroup);
          await running.result;
        }
      } finally {
        rmSync(job.workspaceDir, { recursive: true, force: true });
      }
    });

    it.skipIf(!available)(
      "gives the command the same stdin, output, exit status, environment, folder and rlimits as a direct start",
      async () => {
        const { cgroups: _cgroups, ...withoutGroups } = limits!;
        const direct = make(withoutGroups);
        const armed = withGroups();
        await pause(200);
        // the launcher sets the rlimits with bash's ulimit instead of prlimit: /proc/self/limits must read the same;
        // it reads its input from a file of its own, which the command must not inherit (the open descriptors match);
        // an argument longer than a socket's buffer arrives whole
        const script =
          'read line; echo "in:$line"; echo "env:$GREETING"; pwd; printf "long:%s\\n" "${#1}"; ls /proc/self/fd; ' +
          "cat /proc/self/limits; echo oops >&2; exit 7";
        const long = "x".repeat(120_000);
        const outcomes = [];
        const jobs = [request(["/bin/sh", "-c", script, "sh", long]), request(["/bin/sh", "-c", script, "sh", long])];
        for (const [index, executor] of [direct, armed].entries()) {
          const job = jobs[index]!;
          const running = executor.start(job);
          // the armed executor's command came through its launcher
          expect(groupOf(running.pid).includes("-launch-")).toBe(executor === armed);
          running.write("a line\n");
          running.closeStdin();
          const { exitCode, signal, stdout, stderr, timedOut } = await running.result;
          // the folder differs per request for the local executor (each has its own workspace): compare it apart
          const folder = `${folderOf(job)}\n`;
          expect(stdout).toContain(`env:hello there\n${folder}`);
          outcomes.push({ exitCode, signal, stdout: stdout.replace(folder, "<folder>\n"), stderr, timedOut });
        }
        expect(outcomes[1]).toEqual(outcomes[0]);
        expect(outcomes[1]).toMatchObject({
          exitCode: 7,
          stdout: expect.stringMatching(/^in:a line\nenv:hello there\n<folder>\nlong:120000\n/),
        });
        expect(outcomes[1]!.stdout).toMatch(
          new RegExp(`Max data size\\s+${limits!.memoryBytes}\\s+${limits!.memoryBytes}\\s+bytes`),
        );
      },
    );

    it.skipIf(!available)(
      "commands started together, more than are ready, each start in a launcher's group",
      async () => {
        const executor = withGroups();
        await pause(300);
        // two launchers are kept ready; the third command arms one on the spot and is handed over once it is moved
        const started = [0, 1, 2].map(() => executor.start(request(["/bin/sh", "-c", "read a; echo $a; read b"])));
        const groups: string[] = [];
        for (const running of started) {
          const echoed = new Promise<void>((resolve) => running.onOutput(() => resolve()));
          running.write("go\n");
          // the command has run (it echoed): its first process is where it started it
          await echoed;
          groups.push(groupOf(running.pid));
          running.write("end\n");
          running.closeStdin();
        }
        for (const group of groups) expect(group).toContain(`/skillgraph-${process.pid}-launch-`);
        expect(new Set(groups).size).toBe(3);
        for (const running of started) expect(await running.result).toMatchObject({ exitCode: 0, stdout: "go\n" });
      },
    );

    it.skipIf(!available)("still times a command out and kills its tree", async () => {
      const executor = withGroups();
      await pause(200);
      const marked = request(["/bin/sh", "-c", "sleep 30 & sleep 30"], { timeoutMs: 300 });
      const result = await executor.run(marked);
      expect(result.timedOut).toBe(true);
      expect(await findMarkedProcesses(marked.runId)).toEqual([]);
    });

    it.skipIf(!available)(
      "an idle launcher neither keeps the agent's process alive nor outlives it",
      async () => {
        const script = path.join(mkdtempSync(path.join(os.tmpdir(), "shell-armed-agent-")), "agent.ts");
        const factory = name === "local" ? "createLocalExecutor" : "createBubblewrapExecutor";
        writeFileSync(
          script,
          [
            `import { ${factory} } from ${JSON.stringify(path.join(here, `${name}-executor.ts`))};`,
            `import { resolveLimits } from ${JSON.stringify(path.join(here, "command-limits.ts"))};`,
            `${factory}({ limits: resolveLimits(undefined) });`,
            'console.log("armed");',
          ].join("\n"),
        );
        const child = spawn(process.execPath, ["--conditions=@skillgraph/source", "--import", "tsx", script], {
          cwd: path.resolve(here, "../../../.."),
          stdio: ["ignore", "pipe", "inherit"],
        });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        // the agent has nothing left to do once the executor is made: it must end by itself (bounded by the test timeout)
        const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
        expect(output).toContain("armed");
        expect(code).toBe(0);
        let left = await findMarkedProcesses(`launcher-${child.pid}`);
        for (let wait = 0; wait < 50 && left.length > 0; wait += 1) {
          await pause(100);
          left = await findMarkedProcesses(`launcher-${child.pid}`);
        }
        expect(left).toEqual([]);
      },
      30_000,
    );
  },
);

describe.each(executors)("armed launcher ($name without cgroups)", ({ available, make, folderOf }) => {
  const { cgroups: _cgroups, ...withoutGroups } = limits ?? ({} as CommandLimits);
  const configurations = [
    { label: "limits without a cgroup", executorLimits: limits ? withoutGroups : undefined },
    { label: "no limits", executorLimits: undefined },
  ];
  it.skipIf(!available).each(configurations)(
    "$label: the command starts from a launcher started ahead, with its input, environment, folder and rlimits",
    async ({ executorLimits }) => {
      const executor = make(executorLimits as CommandLimits);
      await pause(300);
      const ready = await findMarkedProcesses(`launcher-${process.pid}`);
      const job = request([
        "/bin/sh",
        "-c",
        'read line; echo "in:$line"; echo "env:$GREETING"; pwd; cat /proc/self/limits; exit 7',
      ]);
      const running = executor.start(job);
      // no fork of this process on the command's path: its first process is a launcher that was waiting already
      expect(ready).toContain(running.pid);
      running.write("a line\n");
      running.closeStdin();
      const result = await running.result;
      expect(result.exitCode).toBe(7);
      expect(result.stdout).toMatch(new RegExp(`^in:a line\nenv:hello there\n${folderOf(job)}\n`));
      if (executorLimits)
        expect(result.stdout).toMatch(
          new RegExp(`Max data size\\s+${executorLimits.memoryBytes}\\s+${executorLimits.memoryBytes}\\s+bytes`),
        );
    },
  );
});

describe("armed launcher reading its command through its pipe (no unnamed file in the temporary folder)", () => {
  it("runs the command with its argument whole, its environment and folder, and no descriptor of its own", async () => {
    const launcher = createArmedLauncher({ bashPath: "/bin/bash", limits, openInput: () => undefined });
    expect(launcher).toBeDefined();
    await pause(300);
    const long = "y".repeat(120_000);
    const job = request([]);
    const running = launcher!.launch(
      {
        file: startPrefix(limits, "/bin/bash")[0]!,
        args: [
          ...startPrefix(limits, "/bin/bash").slice(1),
          "/bin/sh",
          "-c",
          'printf "%s %s\\n" "${#1}" "$GREETING"; pwd; ls /proc/self/fd',
          "sh",
          long,
        ],
        cwd: job.workspaceDir,
        env: { PATH: "/usr/bin:/bin", GREETING: "hi" },
      },
      job,
    );
    expect(running).toBeDefined();
    running!.closeStdin();
    const result = await running!.result;
    expect(result).toMatchObject({ exitCode: 0, stdout: `120000 hi\n${job.workspaceDir}\n0\n1\n2\n3\n` });
  });
});

describe("armed launcher whose input file cannot take the command", () => {
  it("answers undefined, so the executor starts the command itself, and kills that launcher", async () => {
    // a read-only descriptor stands for a file that cannot be written (a full disk)
    const readOnly = () => openSync("/dev/null", "r");
    const others = await findMarkedProcesses(`launcher-${process.pid}`);
    const launcher = createArmedLauncher({ bashPath: "/bin/bash", limits, openInput: readOnly });
    expect(launcher).toBeDefined();
    // the launcher armed at once, the one the command is handed to: told from those other tests' executors arm
    // meanwhile by its input, /dev/null on fd 4 (theirs is an unnamed file, or none), and from the next of its own
    // (armed on a timer) by its start time
    const inputOf = (pid: number) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/4`);
      } catch {
        return undefined;
      }
    };
    const startTime = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    };
    const [mine] = (await findMarkedProcesses(`launcher-${process.pid}`))
      .filter((pid) => !others.includes(pid) && inputOf(pid) === "/dev/null")
      .sort((a, b) => startTime(a) - startTime(b));
    expect(mine).toBeDefined();
    const job = request([]);
    const spec = {
      file: startPrefix(limits, "/bin/bash")[0]!,
      args: [...startPrefix(limits, "/bin/bash").slice(1), "/bin/true"],
      cwd: job.workspaceDir,
      env: { PATH: "/usr/bin:/bin" },
    };
    expect(launcher!.launch(spec, job)).toBeUndefined();
    // the dropped launcher is killed without running anything (bounded wait: it is reaped by this process)
    let left = await findMarkedProcesses(`launcher-${process.pid}`);
    for (let wait = 0; wait < 50 && left.includes(mine!); wait += 1) {
      await pause(100);
      left = await findMarkedProcesses(`launcher-${process.pid}`);
    }
    expect(left).not.toContain(mine);
  });
});

describe.skipIf(!limits?.cgroups)("armed launcher, handed a command it must not run", () => {
  it("runs nothing when its move into the group fails after the command was written to its input file", async () => {
    // a group whose move the test settles by hand: the command is written (to the launcher's own file) at once, and
    // the launcher is told to go only once it is in its group; a failed move never says go. The move settled is the
    // first launcher's (the one the command is handed to), asked for once its group is made (off the event loop)
    let settleJoin: ((joined: boolean) => void) | undefined;
    let joinCalled: () => void = () => undefined;
    const firstJoin = new Promise<void>((resolve) => (joinCalled = resolve));
    const group: CommandCgroup = {
      joinPrefix: [],
      adopt: () => true,
      join: () =>
        new Promise<boolean>((resolve) => {
          settleJoin ??= resolve;
          joinCalled();
        }),
      settle: async () => ({ oomKills: 0, refusedForks: 0 }),
      release: async () => undefined,
      recycle: async () => false,
    };
    const launcher = createArmedLauncher({
      bashPath: "/bin/bash",
      host: { version: 1, memoryParent: "/nonexistent", pidsParent: "/nonexistent" },
      limits: limits!,
      openGroup: async () => group,
    });
    expect(launcher).toBeDefined();
    const job = request([]);
    const marker = path.join(job.workspaceDir, "ran");
    const running = launcher!.launch(
      {
        file: startPrefix(limits, "/bin/bash")[0]!,
        args: [...startPrefix(limits, "/bin/bash").slice(1), "/bin/sh", "-c", `echo ran > ${marker}`],
        cwd: job.workspaceDir,
        env: { PATH: "/usr/bin:/bin" },
      },
      job,
    );
    expect(running).toBeDefined();
    await firstJoin;
    settleJoin!(false);
    const result = await running!.result;
    expect(result.exitCode).toBe(125);
    expect(existsSync(marker)).toBe(false);
  });
});
