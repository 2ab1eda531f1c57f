// Every TypeScript block in docs/*.md and packages/*/README.md is a program that runs: each block is saved in its own
// folder inside the repository (so the workspace packages resolve), next to a copy of examples/skills as ./skills and
// a link to the repository's test/ (for the test server), then type-checked together in one tsc run and executed with
// tsx against the local OpenAI-compatible test server. Blocks marked ```ts no-run <reason> are listed, not run.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { REPO_ROOT } from "../support/shared-paths.js";
import { docBlocks, documentedFiles, type DocBlock } from "./doc-blocks.js";

const blocks = documentedFiles(REPO_ROOT).flatMap((file) => docBlocks(REPO_ROOT, file));
const runnable = blocks.filter((block) => block.noRun === undefined);
const notRunnable = blocks.filter((block) => block.noRun !== undefined);
const workRoot = join(REPO_ROOT, ".test-results", "doc-blocks");
const folderOf = (block: DocBlock) => join(workRoot, block.id.replace(/[^a-zA-Z0-9]+/g, "-"));

function run(
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

describe("TypeScript blocks in docs/ and package READMEs", () => {
  let server: OpenAICompatibleServer | undefined;

  beforeAll(async () => {
    // Any chat model call in a block gets a plain answer; the blocks that need more set up their own server.
    server = await startOpenAICompatibleServer({ script: ["Done."], loop: true });
    rmSync(workRoot, { recursive: true, force: true });
    for (const block of runnable) {
      const folder = folderOf(block);
      mkdirSync(folder, { recursive: true });
      cpSync(join(REPO_ROOT, "examples", "skills"), join(folder, "skills"), { recursive: true });
      symlinkSync(join(REPO_ROOT, "test"), join(folder, "test"));
      writeFileSync(join(folder, "block.ts"), block.program);
    }
    // One tsc run for all blocks: a user's strict settings (without noUncheckedIndexedAccess, which few apps enable).
    writeFileSync(
      join(workRoot, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.base.json",
        compilerOptions: {
          noEmit: true,
          noUncheckedIndexedAccess: false,
          customConditions: ["@skillgraph/source"],
          types: ["node"],
        },
        include: ["*/block.ts"],
      }),
    );
  });
  afterAll(() => server?.close());

  it("has blocks to check, and every no-run block says why", () => {
    expect(runnable.length).toBeGreaterThanOrEqual(10);
    for (const block of notRunnable) expect(block.noRun, `${block.id}: no-run needs a reason`).not.toBe("");
    console.log(
      `doc blocks: ${runnable.length} run; not run: ${notRunnable.map((block) => `${block.id} (${block.noRun})`).join(", ")}`,
    );
  });

  it("type-checks every runnable block (one tsc run)", async () => {
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const { code, stdout, stderr } = await run(
      process.execPath,
      [tsc, "-p", join(workRoot, "tsconfig.json")],
      workRoot,
      process.env,
    );
    expect({ code, output: `${stdout}${stderr}`.replaceAll(`${workRoot}/`, "") }).toEqual({ code: 0, output: "" });
  });

  it.each(runnable.map((block) => [block.id, block] as const))("%s runs", async (_id, block) => {
    const folder = folderOf(block);
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
