import { spawn } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { raceUntil } from "../support/race-until.js";
import { bubblewrapWorks, harnessesFor, EXECUTORS, exists, hostTarget, type AttackHarness } from "./attack-harness.js";

// Races are run as races: a racer process inside the sandbox (a skill script in an interactive session) swaps a
// workspace entry between a real folder/file and a symlink to a host path while the host side stages files and
// collects out/. Each attack runs rounds until the racer was met or a time bound passed ("race not met" is printed
// then, not failed: a loaded machine may never interleave), and asserts nothing outside was written or read.

const ROUNDS = 200;
const TOOL_ROUNDS = 25;
/** How long a race runs at most: its minimum rounds, then on until the racer was met (see raceUntil). */
const RACE_BOUND_MS = 20_000;
const canSandbox = bubblewrapWorks();

async function withRacer<T>(harness: AttackHarness, command: string, work: () => Promise<T>): Promise<T> {
  const started = await harness.call("run_skill_script", { skill: "attacker", command, interactive: true });
  expect(started.status).toBe("running");
  try {
    // let the racer get going
    await new Promise((resolve) => setTimeout(resolve, 100));
    return await work();
  } finally {
    await harness.call("shell_session_kill", { session_id: started.session_id });
  }
}

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `workspace races (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);

      it("staging into a folder swapped for a symlink never writes to the host folder", async () => {
        const target = hostTarget();
        const before = target.entries();
        const attack = harness();
        await attack.call("shell", { command: "true" });
        const outcomes = new Set<string>();
        await withRacer(attack, `scripts/swap-folder.sh in/t to:${target.dir}`, async () => {
          // at least ROUNDS rounds, and on until the racer was met (without a racer every staging succeeds, so a
          // refusal shows the race was met) or the time bound passed
          await raceUntil({
            name: `staging into a swapped folder (${executor})`,
            minRounds: ROUNDS,
            timeBoundMs: RACE_BOUND_MS,
            met: () => outcomes.has("refused"),
            round: async () => {
              try {
                await attack.hook.stageFiles(attack.threadId, [{ path: "in/t/evil.txt", content: "pwned" }]);
                outcomes.add("written");
              } catch {
                outcomes.add("refused");
              }
            },
          });
          for (let round = 0; round < TOOL_ROUNDS; round += 1) {
            const result = await attack.call("shell", {
              command: "true",
              files: [{ path: "in/t/evil2.txt", content: "pwned" }],
            });
            outcomes.add(result.status);
          }
        });
        expect(target.entries()).toEqual(before);
        expect(exists(path.join(target.dir, "evil.txt"))).toBe(false);
      });

      it("collecting out/ while files and folders are swapped for symlinks never returns a host file", async () => {
        const target = hostTarget();
        const attack = harness();
        await attack.call("shell", { command: "true" });
        const seen: string[] = [];
        const race = `scripts/swap-file.sh out/x.txt to:${target.secretFile}`;
        await withRacer(attack, race, async () => {
          await withRacer(attack, `scripts/swap-folder.sh out/d to:${path.join(target.dir, "b")}`, async () => {
            // at least TOOL_ROUNDS calls, and on until a collection met a swapped entry or the time bound passed
            await raceUntil({
              name: `collecting out/ while entries are swapped (${executor})`,
              minRounds: TOOL_ROUNDS,
              timeBoundMs: RACE_BOUND_MS,
              met: () =>
                seen.some(
                  (result) => result.includes('"reason":"symlink"') || result.includes("changed-while-reading"),
                ),
              round: async () => {
                const result = await attack.call("shell", { command: "true", output_globs: ["**"] });
                seen.push(JSON.stringify(result));
              },
            });
          });
        });
        expect(seen.join("\n")).not.toContain(target.secret);
      });

      it("a staged file cannot replace a FIFO or a hard link planted in the workspace", async () => {
        const target = hostTarget();
        const attack = harness();
        await attack.call("shell", { command: "mkfifo in/pipe" });
        const fifo = await attack.call("shell", { command: "true", files: [{ path: "in/pipe", content: "x" }] });
        expect(fifo).toMatchObject({ status: "refused", reason: "staging-refused" });
        // a local command can hard-link a host file into the workspace (planted here directly): staging must not write through it
        linkSync(target.secretFile, path.join(attack.workspace, "in", "hard"));
        const linked = await attack.call("shell", { command: "true", files: [{ path: "in/hard", content: "pwned" }] });
        expect(linked).toMatchObject({ status: "refused", reason: "staging-refused" });
        expect(readFileSync(target.secretFile, "utf8")).toBe(target.secret);
      });
    },
  );
}

describe("level-3 skill file reads under a racer", () => {
  const target = hostTarget();
  const root = mkdtempSync(path.join(os.tmpdir(), "attack-skill-"));
  const skillDir = path.join(root, "victim");
  mkdirSync(path.join(skillDir, "references"), { recursive: true });
  writeFileSync(
    path.join(skillDir, "SKILL.md"),
    "---\nname: victim\ndescription: A skill whose folder is being swapped.\n---\nBody.\n",
  );
  writeFileSync(path.join(skillDir, "references", "secret.txt"), "harmless");
  writeFileSync(path.join(skillDir, "guide.md"), "guide");

  it("never returns a file outside the skill while a folder is swapped for a symlink", async () => {
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const racer = spawn(
      "sh",
      [
        "-c",
        `cd '${skillDir}' && while :; do mv -T references real; ln -s '${path.join(target.dir, "b")}' references; rm references; mv -T real references; done`,
      ],
      { stdio: "ignore" },
    );
    const outcomes = new Set<string>();
    try {
      // at least ROUNDS * 2 reads, and on until one met the swapped folder or the time bound passed
      await raceUntil({
        name: "level-3 read while a folder is swapped for a symlink",
        minRounds: ROUNDS * 2,
        timeBoundMs: RACE_BOUND_MS,
        met: () => [...outcomes].some((outcome) => outcome !== "harmless"),
        round: async () => {
          try {
            const read = await registry.readFile("victim", "references/secret.txt");
            outcomes.add(read.content);
          } catch (error) {
            outcomes.add((error as { reason?: string }).reason ?? "error");
          }
        },
      });
    } finally {
      racer.kill("SIGKILL");
    }
    expect(outcomes.has(target.secret)).toBe(false);
  });

  it("never hangs when a file is swapped for a FIFO", async () => {
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const racer = spawn(
      "sh",
      [
        "-c",
        `cd '${skillDir}' && while :; do rm -f guide.tmp; mkfifo guide.tmp; mv -T guide.tmp guide.md; echo guide > guide.tmp; mv -T guide.tmp guide.md; done`,
      ],
      { stdio: "ignore" },
    );
    const outcomes = new Set<string>();
    try {
      // every read must return (the test would time out otherwise); on until one met the FIFO or the time bound passed
      await raceUntil({
        name: "level-3 read while a file is swapped for a FIFO",
        minRounds: ROUNDS,
        timeBoundMs: RACE_BOUND_MS,
        met: () => outcomes.has("not-a-file"),
        round: async () => {
          try {
            outcomes.add((await registry.readFile("victim", "guide.md")).content.trim());
          } catch (error) {
            outcomes.add((error as { reason?: string }).reason ?? "error");
          }
        },
      });
    } finally {
      racer.kill("SIGKILL");
    }
    // whatever the reads met, each returned the file's content or a typed refusal (with a reason)
    expect(outcomes.has("error")).toBe(false);
  });
});
