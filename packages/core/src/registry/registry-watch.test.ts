import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { skillsFromCode } from "../sources/code-source.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { createSkillRegistry } from "./create-skill-registry.js";
import type { SkillRegistry } from "./registry-types.js";

/** Polls `condition` until it holds or `timeoutMs` passes (a bounded wait, not a timing assertion). */
async function eventually(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const open: SkillRegistry[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((registry) => registry.close()));
});

async function watched(
  root: string,
  watch: boolean | { pollMs?: number; debounceMs?: number } = true,
  source: { optional?: boolean } = {},
) {
  const registry = await createSkillRegistry({
    sources: [
      skillsFromDirectory(root, source),
      skillsFromCode([{ name: "in-code", description: "Code.", body: "x" }]),
    ],
    watch,
    snapshot: false,
  });
  open.push(registry);
  return registry;
}

describe("createSkillRegistry({ watch: true })", () => {
  it("sees an added, an edited, a renamed and a deleted skill without reload()", async () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One."), "two/SKILL.md": skillMd("two", "Two.") });
    const registry = await watched(root);
    const view = registry.view({ only: ["one"] });
    const viewList = view.list();

    mkdirSync(join(root, "three"));
    writeFileSync(join(root, "three/SKILL.md"), skillMd("three", "Three."));
    await eventually(() => registry.has("three"));
    // A view whose skills did not change keeps the very same list (same prompt bytes).
    expect(view.list()).toStrictEqual(viewList);

    writeFileSync(join(root, "two/SKILL.md"), skillMd("two", "Two, edited."));
    await eventually(() => registry.get("two")?.description === "Two, edited.");

    renameSync(join(root, "three"), join(root, "three-moved"));
    await eventually(() => registry.get("three")?.dir === join(root, "three-moved"));

    rmSync(join(root, "two"), { recursive: true });
    await eventually(() => !registry.has("two"));
    expect(registry.has("in-code")).toBe(true);
    expect(view.list().map((skill) => skill.description)).toEqual(["One."]);
  });

  it("picks up a skills folder created after start by polling", async () => {
    const parent = writeTree({});
    const root = join(parent, "later");
    // A folder that does not exist yet must say it may be absent (otherwise creating the registry rejects).
    const registry = await watched(root, { pollMs: 20 }, { optional: true });
    expect(registry.list().map((skill) => skill.name)).toEqual(["in-code"]);
    mkdirSync(join(root, "late"), { recursive: true });
    writeFileSync(join(root, "late/SKILL.md"), skillMd("late", "Late."));
    await eventually(() => registry.has("late"));
  });

  it("stops after close()", async () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One.") });
    const registry = await watched(root, { debounceMs: 0 });
    // a second registry watching the same folder, left open: once it has seen the changes, a watcher of the closed
    // one would have had its chance too
    const control = await watched(root, { debounceMs: 0 });
    await registry.close();
    const version = registry.version;
    writeFileSync(join(root, "one/SKILL.md"), skillMd("one", "One, edited."));
    mkdirSync(join(root, "two"));
    writeFileSync(join(root, "two/SKILL.md"), skillMd("two", "Two."));
    await eventually(() => control.has("two") && control.get("one")?.description === "One, edited.");
    expect(registry.version).toBe(version);
    expect(registry.has("two")).toBe(false);
    await registry.reload();
    expect(registry.has("two")).toBe(true);
  });
});
