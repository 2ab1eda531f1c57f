import { spawn } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidOptionsError } from "@skillgraph/core";
import { attackHarness, bubblewrapWorks, harnessesFor, EXECUTORS, exists, processesWithEnv } from "./attack-harness.js";

// Exhaustion: event-loop blocking globs, huge tool results, unbounded options, commands that outlive the agent or
// escape the cleanup by forking. Each case asserts the attack failed and nothing was lost or left running.

const canSandbox = bubblewrapWorks();
const here = path.dirname(fileURLToPath(import.meta.url));

const unboundedOptions: Array<[string, Record<string, unknown>]> = [
  ["timeoutMs above setTimeout's limit", { timeoutMs: 2 ** 31 }],
  ["maxTimeoutMs above setTimeout's limit", { maxTimeoutMs: 2 ** 32 }],
  ["a fractional timeout", { timeoutMs: 1.5 }],
  ["a negative timeout", { timeoutMs: -1 }],
  ["NaN as killGraceMs", { killGraceMs: Number.NaN }],
  ["Infinity as maxOutputBytes", { maxOutputBytes: Number.POSITIVE_INFINITY }],
  ["maxOutputBytes of 2 GiB", { maxOutputBytes: 2 * 1024 ** 3 }],
  ["killAfterOutputBytes of 4 GiB", { killAfterOutputBytes: 4 * 1024 ** 3 }],
  ["outputFiles.maxFiles of a million", { outputFiles: { maxFiles: 1_000_000 } }],
  ["a string as a limit", { limits: { memoryBytes: "lots" } }],
  ["a zero process limit", { limits: { processes: 0 } }],
  ["a RegExp-less, string-less approval rule", { requireApproval: [42] }],
  ["an empty approval rule", { requireApproval: [""] }],
  ["a non-array allow list", { allow: "git" }],
  ["a relative readable path", { readablePaths: ["etc/passwd"] }],
  ["sessions.maxPerThread of 10 000", { sessions: { maxPerThread: 10_000 } }],
];

describe("options are checked at construction", () => {
  it.each(unboundedOptions)("refuses %s with InvalidOptionsError", (_name, options) => {
    let thrown: unknown;
    try {
      attackHarness("local", options as never);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidOptionsError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/\S/);
  });
});

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `resource exhaustion (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);

      it.each([
        ["a '**/' pattern repeated", ["**/".repeat(80) + "x"]],
        ["a deep brace nest", ["{a,{b,{c,{d,{e,{f,{g,{h}}}}}}}}".repeat(4)]],
        ["many stars", ["*".repeat(200) + "x"]],
      ])("collects with %s without blocking (bounded by the test timeout)", async (_name, globs) => {
        const attack = harness();
        await attack.call("shell", { command: "true" });
        mkdirSync(path.join(attack.workspace, "out", ...Array.from({ length: 30 }, (_, index) => `d${index}`)), {
          recursive: true,
        });
        const result = await attack.call("shell", { command: "true", output_globs: globs });
        expect(["ok", "refused"]).toContain(result.status);
      });

      it.each([
        ["an absolute glob", ["/etc/**"]],
        ["a climbing glob", ["../**"]],
        ["an over-long glob", ["a".repeat(1000)]],
        ["too many globs", Array.from({ length: 100 }, (_, index) => `f${index}`)],
        ["an unbalanced bracket", ["[abc"]],
        [
          "32 globs of 32 brace alternatives each (over the token budget)",
          Array.from({ length: 32 }, (_, k) => `${"**/*{a,b}*".repeat(5)}/**/*${k}*z*`.slice(0, 256)),
        ],
      ])("refuses %s before the command runs", async (_name, globs) => {
        const attack = harness();
        const result = await attack.call("shell", { command: "touch out/RAN", output_globs: globs });
        expect(result).toMatchObject({ status: "refused", reason: "invalid-glob" });
        expect(exists(path.join(attack.workspace, "out", "RAN"))).toBe(false);
      });

      it("caps every list in a tool result when out/ holds 10 000 files", async () => {
        const attack = harness();
        await attack.call("shell", { command: "true" });
        const out = path.join(attack.workspace, "out", "many");
        mkdirSync(out, { recursive: true });
        for (let index = 0; index < 10_000; index += 1) writeFileSync(path.join(out, `f${index}`), "");
        const collected = await attack.call("shell", { command: "touch out/many/f1" });
        const size = JSON.stringify(collected).length;
        expect(size).toBeLessThan(64 * 1024);
        expect(collected.output_files.length).toBeLessThanOrEqual(20);
        expect((collected.skipped_files ?? []).length).toBeLessThanOrEqual(20);
      });

      it("a fork-and-exit loop is fully killed when the command ends", async () => {
        const attack = harness({ timeoutMs: 1_500 });
        // digits only, unique to this call: other test files running beside this one start `sleep 30` too
        const marker = String(randomInt(1e9, 1e12));
        const result = await attack.call("run_skill_script", {
          skill: "attacker",
          command: `scripts/fork-loop.sh ${marker}`,
        });
        // stopped by the timeout, or earlier by the per-command process limit (a cgroup's pids.max, where there is one)
        expect(["timed_out", "failed"]).toContain(result.status);
        // killed processes still need a core to exit: wait until none is left or 10 s pass (a sleep of the loop
        // that escaped would live 30 s), and say which
        const live = () =>
          processesWithEnv(`SKILLGRAPH_RUN_ID=`).filter((pid) => processCommand(pid).includes(`30.${marker}`));
        let left = live();
        for (let wait = 0; wait < 100 && left.length > 0; wait += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          left = live();
        }
        expect(left, "processes of the loop still running 10 s after the command ended").toEqual([]);
      });

      it("commands die with the agent, even when the agent is killed with SIGKILL", async () => {
        const marker = `agent-${randomUUID()}`;
        const child = spawn(
          process.execPath,
          ["--conditions=@skillgraph/source", "--import", "tsx", path.join(here, "agent-process.ts"), executor],
          {
            env: { ...process.env, ATTACK_MARKER: marker },
            stdio: ["ignore", "pipe", "inherit"],
          },
        );
        await new Promise<void>((resolve, reject) => {
          child.stdout.on("data", (chunk: Buffer) => {
            if (chunk.toString().includes("started")) resolve();
          });
          child.once("exit", () => reject(new Error("agent exited before starting its command")));
        });
        // the command's processes (the agent itself carries the marker too, and is not counted); "started" comes after
        // the interactive start's first second at most, which on a loaded machine may be before the command runs
        let before = processesWithEnv(marker).filter((pid) => pid !== child.pid);
        for (const deadline = Date.now() + 30_000; before.length === 0 && Date.now() < deadline;) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          before = processesWithEnv(marker).filter((pid) => pid !== child.pid);
        }
        expect(before.length).toBeGreaterThan(0);
        child.kill("SIGKILL");
        let left = before;
        for (let wait = 0; wait < 300 && left.length > 0; wait += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          left = processesWithEnv(marker).filter(
            (pid) => pid !== child.pid && !processCommand(pid).startsWith("(zombie)"),
          );
        }
        expect(left).toEqual([]);
      });
    },
  );
}

function processCommand(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return "(zombie)";
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}
