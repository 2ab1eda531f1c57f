// `npm start`'s first step on a fresh checkout: scripts/bootstrap.sh in a copy of the tracked files (no node_modules,
// no dist/), so it installs every dependency and builds every package. The pnpm store is the machine's own, so it is
// usually WARM (no downloads): the install is linking, plus the native build of better-sqlite3 unless the store kept an
// earlier build of it (pnpm's side-effects cache; then there is nothing to build).
// Records the longest gap between output lines (reported, and written to .test-results/bootstrap-gaps.json) and checks
// that each step says what it does and how long it took, with heartbeat lines while a long step is quiet.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

interface TimedLine {
  at: number;
  text: string;
}

describe("bootstrap.sh on a fresh checkout (warm pnpm store)", () => {
  const work = mkdtempSync(join(realpathSync(tmpdir()), "skillgraph-bootstrap-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("says what each step does and how long it took, never quiet for long", async () => {
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }).split("\0");
    for (const file of files.filter((path) => path && existsSync(join(REPO_ROOT, path)))) {
      mkdirSync(join(work, dirname(file)), { recursive: true });
      cpSync(join(REPO_ROOT, file), join(work, file));
    }
    const started = Date.now();
    const lines: TimedLine[] = [];
    const child = spawn("bash", ["scripts/bootstrap.sh"], {
      cwd: work,
      env: { ...process.env, TURBO_CACHE_DIR: join(work, ".turbo-cache") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let partial = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const complete = text.split("\n");
      partial = complete.pop()!;
      for (const line of complete) lines.push({ at: Date.now(), text: line });
    });
    const code = await new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
    const ended = Date.now();
    expect(code, lines.map((line) => line.text).join("\n")).toBe(0);
    expect(stdout).toBe(""); // everything is progress: stderr

    let longest = { gap: 0, after: "(start)" };
    let previous = { at: started, text: "(start)" };
    for (const line of [...lines, { at: ended, text: "(exit)" }]) {
      if (line.at - previous.at > longest.gap) longest = { gap: line.at - previous.at, after: previous.text };
      previous = line;
    }
    const progress = lines.map((line) => line.text).filter((text) => text.startsWith("skillgraph: "));
    const report = {
      totalSeconds: (ended - started) / 1000,
      longestGapSeconds: longest.gap / 1000,
      longestGapAfter: longest.after,
      pnpmStore: "the machine's own (warm when other checkouts installed the same lockfile)",
      progress,
    };
    mkdirSync(join(REPO_ROOT, ".test-results"), { recursive: true });
    writeFileSync(join(REPO_ROOT, ".test-results", "bootstrap-gaps.json"), JSON.stringify(report, null, 2));
    console.log(
      `bootstrap on a fresh checkout: ${report.totalSeconds.toFixed(1)} s in all; longest gap between output lines ` +
        `${report.longestGapSeconds.toFixed(1)} s (after "${longest.after}")`,
    );

    // Never quiet for long: a step prints, or its heartbeat does after 5 s of quiet (progress.mjs; that the heartbeat
    // names the step or its part is checked in progress-substep.test.ts). Whether a step has a quiet stretch at all
    // depends on how its output falls, so what is checked here is the gap, with room for a loaded machine's timers.
    expect(longest.gap, `quiet for ${longest.gap} ms after "${longest.after}"`).toBeLessThan(15_000);
    // Each step is announced, then ends with how long it took.
    const expectTimedStep = (step: string) => {
      expect(
        progress.some((text) => text.startsWith(`skillgraph: ${step} (`) && text.endsWith("...")),
        step,
      ).toBe(true);
      expect(
        progress.some((text) => text.startsWith(`skillgraph: ${step}: done in `)),
        step,
      ).toBe(true);
    };
    for (const step of ["installing dependencies", "building the packages"]) expectTimedStep(step);
    // The native build runs inside the install and is a step of its own: timed when it runs, otherwise (pnpm's store
    // kept an earlier build of it) a line saying there was nothing to build.
    const native = "building the native SQLite module";
    if (progress.some((text) => text.startsWith(`skillgraph: ${native}: nothing to build (`))) {
      expect(progress.some((text) => text.startsWith(`skillgraph: ${native} (`))).toBe(false);
    } else {
      expectTimedStep(native);
      const install = progress.find((text) => text.startsWith("skillgraph: installing dependencies: done in "));
      expect(install).toMatch(/ s \([\d.]+ s of it building the native SQLite module\)$/);
    }
    expect(progress.at(-1)).toMatch(/^skillgraph: ready in \d+ s$/);
  }, 900_000);
});
