// Attacks on `skillgraph add`: a shared folder of skills holds a symlink to another user's skill folder (with a
// credentials file in it), or one skill holds tens of thousands of folders.
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

describe("attack: skillgraph add", () => {
  it("does not copy a skill folder reached through a symlink, and says which and where it points", async () => {
    const outside = writeTree({
      "deploy/SKILL.md": skillMd("deploy", "Deploys."),
      "deploy/credentials.json": '{"token":"HOST-SECRET"}',
    });
    const shared = writeTree({ "pdf/SKILL.md": skillMd("pdf", "Read PDFs.") });
    symlinkSync(join(outside, "deploy"), join(shared, "deploy"));
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", shared], io)).toBe(0);
    expect(existsSync(join(project, ".agents/skills/pdf/SKILL.md"))).toBe(true);
    expect(existsSync(join(project, ".agents/skills/deploy"))).toBe(false);
    expect(io.err()).toContain(
      `warning: not adding ${join(shared, "deploy")}: it is reached through a symlink to ${join(outside, "deploy")}`,
    );
  });

  it("follows a PATH that is itself a symlink (the user named it), and says so", async () => {
    const outside = writeTree({ "notes/SKILL.md": skillMd("notes", "Notes.") });
    const links = writeTree({});
    symlinkSync(join(outside, "notes"), join(links, "notes"));
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", join(links, "notes")], io)).toBe(0);
    expect(io.err()).toContain(`note: ${join(links, "notes")} is a symlink; following it to ${join(outside, "notes")}`);
    expect(existsSync(join(project, ".agents/skills/notes/SKILL.md"))).toBe(true);
  });

  it("counts folders in its 2 000-entry bound (a skill of 2 500 empty folders is refused, nothing is left behind)", async () => {
    const source = writeTree({ "wide/SKILL.md": skillMd("wide", "Wide.") });
    for (let i = 0; i < 2500; i++) mkdirSync(join(source, "wide", `d${i}`));
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", join(source, "wide")], io)).toBe(1);
    expect(io.err()).toContain("more than 2000 files and folders in the skill");
    expect(existsSync(join(project, ".agents/skills/wide"))).toBe(false);
  }, 60_000);
});
