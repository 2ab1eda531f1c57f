import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

describe("skillgraph index", () => {
  it("writes a snapshot with --out that a registry over the same folder then uses", async () => {
    const root = writeTree({
      "skills/one/SKILL.md": skillMd("one", "One."),
      "skills/two/SKILL.md": skillMd("two", "Two."),
    });
    const io = captureIO(root);
    expect(await runCli(["index", "--json", "--out", "build/skills.snapshot.json", "--skills", "skills"], io)).toBe(0);
    const report = JSON.parse(io.out()) as { file: string; skills: number; bytes: number };
    expect(report).toMatchObject({ file: join(root, "build/skills.snapshot.json"), skills: 2 });
    // the binary snapshot follows the MAC line signing it with this user's cache key: magic, header length, JSON header
    const bytes = readFileSync(report.file);
    expect(bytes.toString("latin1", 0, 88)).toMatch(/^skillgraph-mac:[0-9a-f]{64}\nskgsnap\n$/);
    const payload = bytes.subarray(80);
    const header = JSON.parse(payload.toString("latin1", 12, 12 + payload.readUInt32LE(8))) as {
      format: string;
      count: number;
    };
    expect(header.format).toBe("skillgraph-registry-snapshot");
    expect(header.count).toBe(2);
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(join(root, "skills"))],
      snapshot: report.file,
    });
    expect(registry.diagnostics()).toEqual([]);
    expect(registry.list().map((skill) => skill.name)).toEqual(["one", "two"]);
  });

  it("writes to the default cache location without --out", async () => {
    const root = writeTree({
      "package.json": "{}",
      "node_modules/.keep": "",
      "skills/one/SKILL.md": skillMd("one", "One."),
    });
    const io = captureIO(root);
    expect(await runCli(["index", "--skills", "skills"], io)).toBe(0);
    expect(io.out()).toContain(join(root, "node_modules/.cache/skillgraph/registry-"));
    expect(io.out()).toContain("1 skill indexed");
  });
});
