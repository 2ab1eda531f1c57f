// What the doc-block test files share: the blocks, a folder per block (inside the repository so the workspace packages
// resolve, next to a copy of examples/skills as ./skills and a link to test/), and running a block with tsx. The
// blocks are checked by four files (one tsc run; the runs in three shares) so vitest runs them in parallel; each file
// works in a folder of its own.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { REPO_ROOT } from "../support/shared-paths.js";
import { docBlocks, documentedFiles, type DocBlock } from "./doc-blocks.js";

/** Every TypeScript block of docs/*.md and packages/*\/README.md. */
export const blocks = documentedFiles(REPO_ROOT).flatMap((file) => docBlocks(REPO_ROOT, file));
/** The blocks that are programs. */
export const runnable = blocks.filter((block) => block.noRun === undefined);
/** How many files run the blocks (doc-blocks-run-N.int.test.ts, N from 1). */
export const RUN_SHARES = 3;

/** The folder one test file works in. */
export function workRootOf(part: string): string {
  return join(REPO_ROOT, ".test-results", "doc-blocks", part);
}

/** The folder of one block under a work root. */
export function folderOf(workRoot: string, block: DocBlock): string {
  return join(workRoot, block.id.replace(/[^a-zA-Z0-9]+/g, "-"));
}

/** Writes a fresh folder for each block under `workRoot`. */
export function writeBlockFolders(workRoot: string, chosen: readonly DocBlock[]): void {
  rmSync(workRoot, { recursive: true, force: true });
  for (const block of chosen) {
    const folder = folderOf(workRoot, block);
    mkdirSync(folder, { recursive: true });
    cpSync(join(REPO_ROOT, "examples", "skills"), join(folder, "skills"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "test"), join(folder, "test"));
    writeFileSync(join(folder, "block.ts"), block.program);
  }
}

/** Runs a command to its end; its exit code and output. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** The test suite of share `share` (1..RUN_SHARES): each of its blocks runs with tsx against the test server. */
export function describeBlockRuns(share: number): void {
  const chosen = runnable.filter((_block, index) => index % RUN_SHARES === share - 1);
  const workRoot = workRootOf(`run-${share}`);
  describe(`TypeScript blocks in docs/ and package READMEs, runs ${share} of ${RUN_SHARES}`, () => {
    let server: OpenAICompatibleServer | undefined;
    beforeAll(async () => {
      // Any chat model call in a block gets a plain answer; the blocks that need more set up their own server.
      server = await startOpenAICompatibleServer({ script: ["Done."], loop: true });
      writeBlockFolders(workRoot, chosen);
    });
    afterAll(() => server?.close());

    it("has blocks to run", () => {
      expect(chosen.length).toBeGreaterThan(0);
    });

    it.each(chosen.map((block) => [block.id, block] as const))("%s runs", async (_id, block) => {
      const folder = folderOf(workRoot, block);
      const env = {
        PATH: process.env.PATH ?? "/usr/bin",
        HOME: folder,
        OPENAI_BASE_URL: server!.url,
        OPENAI_API_KEY: "test-key",
        NO_COLOR: "1",
      };
      const { code, stderr } = await run(
        process.execPath,
        ["--conditions=@skillgraph/source", "--import", "tsx", "block.ts"],
        folder,
        env,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    });
  });
}
