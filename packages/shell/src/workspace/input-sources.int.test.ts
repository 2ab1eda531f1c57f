// host:// inputs (host folders the app lists: copied in, confined, read-only) and pinned artifact versions.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { artifactStoreFromBaseStore, createShellHook, type ShellHookOptions } from "@skillgraph/shell";

function hook(options: Partial<ShellHookOptions>) {
  return createShellHook({
    skills: { get: () => undefined },
    executor: "local",
    alwaysVisible: ["shell"],
    ...options,
  });
}

async function run(shell: ReturnType<typeof hook>, input: Record<string, unknown>) {
  const tool = shell.tools.find((candidate) => candidate.name === "shell")!;
  return JSON.parse(String(await tool.invoke(input, { configurable: { thread_id: "inputs" } }))) as Record<string, any>;
}

describe("declared inputs", () => {
  it("copies files from a host folder the app lists, and nothing outside it", async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), "host-inputs-"));
    mkdirSync(path.join(data, "q3"));
    writeFileSync(path.join(data, "q3", "sales.csv"), "region,units\nNorth,3\n");
    symlinkSync("/etc/passwd", path.join(data, "passwd"));
    const shell = hook({ hostInputs: { data } });
    try {
      const staged = await run(shell, { command: "cat in/sales.csv", inputs: [{ from: "host://data/q3/sales.csv" }] });
      expect(staged).toMatchObject({ status: "ok", stdout: "region,units\nNorth,3\n" });
      for (const from of ["host://data/passwd", "host://data/../etc/passwd", "host://etc/passwd", "host://data"]) {
        const refused = await run(shell, { command: "true", inputs: [{ from }] });
        expect(refused, from).toMatchObject({ status: "refused", reason: "staging-refused" });
      }
    } finally {
      await shell.dispose();
    }
    expect(() => hook({ hostInputs: { "../x": data } })).toThrow(/hostInputs/);
    expect(() => hook({ hostInputs: { data: "relative" } })).toThrow(/absolute/);
  });

  it("pin keeps staging the artifact version first staged; without pin the newest comes", async () => {
    const store = new InMemoryStore();
    const artifacts = artifactStoreFromBaseStore(store);
    const save = (text: string) =>
      artifacts.save("inputs", {
        name: "r.txt",
        bytes: Buffer.from(text),
        mimeType: "text/plain",
        savedFrom: "out/r.txt",
      });
    const shell = hook({ artifacts: { store } });
    try {
      await save("first");
      const pinned = { command: "cat in/r.txt", inputs: [{ from: "artifact://r.txt", pin: true }] };
      expect((await run(shell, pinned)).stdout).toBe("first");
      await save("second");
      expect((await run(shell, pinned)).stdout).toBe("first");
      expect((await run(shell, { command: "cat in/r.txt", inputs: [{ from: "artifact://r.txt" }] })).stdout).toBe(
        "second",
      );
    } finally {
      await shell.dispose();
    }
  });

  it("names saved artifacts by name_template and artifact_prefix; unchanged bytes are not saved again unless force_save", async () => {
    const shell = hook({ artifacts: { store: new InMemoryStore() } });
    const save = (outputs: Record<string, unknown>) =>
      run(shell, { command: "cp in/r.md out/report.md", files: [{ path: "in/r.md", content: "# R" }], outputs });
    try {
      const naming = { save_as_artifacts: true, name_template: "q3-{stem}.{ext}", artifact_prefix: "team-" };
      const first = await save(naming);
      expect(first.artifacts).toEqual([expect.objectContaining({ name: "team-q3-report.md", version: 1 })]);
      const again = await save(naming);
      expect(again.artifacts).toEqual([
        expect.objectContaining({ name: "team-q3-report.md", version: 1, unchanged: true }),
      ]);
      const forced = await save({ ...naming, force_save: true });
      expect(forced.artifacts).toEqual([expect.objectContaining({ version: 2 })]);
      expect(forced.artifacts[0].unchanged).toBeUndefined();
      const bad = await save({ save_as_artifacts: true, name_template: "../{name}" });
      expect(bad.artifacts).toEqual([
        expect.objectContaining({ skipped: expect.stringContaining("not a valid artifact name") }),
      ]);
    } finally {
      await shell.dispose();
    }
  });
});
