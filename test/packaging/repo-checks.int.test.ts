import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

/** Runs a command from the repository root; resolves with its exit code and output. */
function run(command: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolveRun({ code, output }));
  });
}

// The repository-wide checks CI runs besides the tests: lint, format (width 120), publint and attw on the packed packages.
const checks: Array<[name: string, command: string, args: string[]]> = [
  ["oxlint (config .oxlintrc.json)", "node_modules/.bin/oxlint", ["."]],
  [
    "code shape: no file over 450 lines, no function over complexity 25, no import cycle (beyond the recorded debt)",
    process.execPath,
    ["scripts/check-code-shape.mjs"],
  ],
  ["oxfmt --check (config .oxfmtrc.json)", "node_modules/.bin/oxfmt", ["--check", "."]],
  [
    "publint --strict and attw --profile esm-only on every packed package",
    process.execPath,
    ["scripts/check-packages.mjs"],
  ],
];

describe("repository checks", () => {
  it.each(checks)("%s passes", async (_name, command, args) => {
    const { code, output } = await run(command, args);
    expect(code, output).toBe(0);
  });
});
