import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createShellHook } from "@skillgraph/shell";
import { bubblewrapWorks } from "./security/attack-harness.js";
import { corpusCommandLines } from "./support/corpus-command-lines.js";
import { CORPUS_AVAILABLE } from "./support/shared-paths.js";

// Every command line of the real-world corpus's shell blocks goes through the `shell` tool under bubblewrap with no
// rules. The bash grammar must refuse at most 3% of them; every refusal is printed with its reason.

const root = mkdtempSync(path.join(os.tmpdir(), "shell-corpus-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!CORPUS_AVAILABLE || !bubblewrapWorks())(
  "corpus command lines through the shell tool (skipped without ../shared/corpus or bubblewrap)",
  () => {
    it("runs or checks every line; at most 3% are refused by the parser", { timeout: 900_000 }, async () => {
      const { lines, leftOut } = corpusCommandLines();
      expect(lines.length).toBeGreaterThan(500);
      const hook = createShellHook({
        skills: { get: () => undefined },
        executor: "bubblewrap",
        workspaceRoot: path.join(root, "ws"),
        alwaysVisible: ["shell"],
        sessions: false,
        killGraceMs: 200,
      });
      const shell = hook.tools.find((tool) => tool.name === "shell")!;
      const outcomes = new Map<string, number>();
      const parserRefused: string[] = [];
      const policyRefused: string[] = [];
      let next = 0;
      const worker = async (slot: number) => {
        while (next < lines.length) {
          const { line, skill } = lines[next++]!;
          const config = { configurable: { thread_id: `corpus-${slot}` } };
          const result = JSON.parse(String(await shell.invoke({ command: line, timeout_seconds: 2 }, config)));
          const outcome = result.status === "refused" ? `refused: ${result.reason}` : "ran";
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (result.reason === "shell-syntax") parserRefused.push(`${line}  [${skill}]: ${result.message}`);
          else if (result.status === "refused" && result.reason !== "not-found")
            policyRefused.push(`${line}  -> ${result.reason}: ${result.message}`);
        }
      };
      await Promise.all([0, 1, 2].map(worker));
      await hook.dispose();
      const summary = [...outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, count]) => `${count} ${outcome}`);
      console.log(
        `corpus: ${lines.length} lines (left out: ${JSON.stringify(leftOut)})\n${summary.join("\n")}\n` +
          `refused by the parser (${parserRefused.length}):\n${parserRefused.join("\n")}\n` +
          `refused by the policy (other than program not installed) (${policyRefused.length}):\n${policyRefused.join("\n")}`,
      );
      expect(parserRefused.length / lines.length).toBeLessThanOrEqual(0.03);
    });
  },
);
