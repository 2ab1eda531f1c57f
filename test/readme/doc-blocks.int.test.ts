// Every TypeScript block in docs/*.md and packages/*/README.md is a program that runs: this file checks that there are
// blocks, that each no-run block says why, and type-checks every runnable block in one tsc run; the runs themselves are
// in doc-blocks-run-1..3.int.test.ts (doc-block-runs.ts), so vitest runs them beside this file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";
import { blocks, run, runnable, RUN_SHARES, workRootOf, writeBlockFolders } from "./doc-block-runs.js";

const notRunnable = blocks.filter((block) => block.noRun !== undefined);
const workRoot = workRootOf("types");

describe("TypeScript blocks in docs/ and package READMEs", () => {
  beforeAll(() => {
    writeBlockFolders(workRoot, runnable);
    // One tsc run for all blocks: a user's strict settings (without noUncheckedIndexedAccess, which few apps enable).
    writeFileSync(
      join(workRoot, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.base.json",
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

  it("has blocks to check, and every no-run block says why", () => {
    expect(runnable.length).toBeGreaterThanOrEqual(10);
    expect(runnable.length).toBeGreaterThanOrEqual(RUN_SHARES);
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
});
