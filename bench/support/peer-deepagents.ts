// deepagents' cold load (createAgent → first model call, skills middleware over a FilesystemBackend), re-measured in
// the same run through the shared peer harness (../shared/bench-peers). The harness folder is read-only, so it is
// copied to the OS temp folder and its pinned dependencies installed there once with `npm ci`.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS_SKILLS_DIR, SHARED_DIR } from "../../test/support/shared-paths.js";

const PEERS = join(SHARED_DIR, "bench-peers");
const COPY = join(tmpdir(), "skillgraph-bench-peers");
const RESULT_MARK = "@@RESULT ";

/** Prepares the harness copy; returns why it cannot run, or undefined when ready. */
export function preparePeerHarness(): string | undefined {
  if (!existsSync(join(PEERS, "harness.mjs"))) return `no peer harness at ${PEERS}`;
  try {
    if (!existsSync(join(COPY, "node_modules", "deepagents"))) {
      mkdirSync(COPY, { recursive: true });
      for (const name of readdirSync(PEERS))
        if (name.endsWith(".mjs") || name.endsWith(".json")) cpSync(join(PEERS, name), join(COPY, name));
      for (const name of readdirSync(COPY)) chmodSync(join(COPY, name), 0o644);
      execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: COPY, stdio: "ignore" });
    }
    return undefined;
  } catch (error) {
    return `cannot install the peer harness: ${(error as Error).message.split("\n")[0]}`;
  }
}

/** One cold sample of deepagents with N skills in a fresh process: ms from createAgent to the first model call. */
export function deepagentsColdMs(n: number): number {
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", join(COPY, "bench-deepagents.mjs"), "--child", "cold", JSON.stringify({ n, arm: "skills" })],
    {
      encoding: "utf8",
      maxBuffer: 1 << 26,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, SKILLS_CORPUS: CORPUS_SKILLS_DIR },
      timeout: 300_000,
    },
  );
  const line = out
    .split("\n")
    .reverse()
    .find((entry) => entry.startsWith(RESULT_MARK));
  if (!line) throw new Error("deepagents child printed no result");
  return (JSON.parse(line.slice(RESULT_MARK.length)) as { createToFirstCallMs: number }).createToFirstCallMs;
}
