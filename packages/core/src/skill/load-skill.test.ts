import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { SkillLoadError } from "./skill-load-error.js";
import { skillText, useTempFolder, yamlBomb } from "./__fixtures__/skill-folders.js";
import { loadSkill, loadSkillFile, loadSkillFromText } from "./load-skill.js";
import type { SkillOrigin } from "./skill-types.js";

const temp = useTempFolder("skillgraph-load-");
const origin: SkillOrigin = { sourceId: "dir:/test", layer: "project", kind: "directory" };
const codeOrigin: SkillOrigin = { sourceId: "code:test", layer: "explicit", kind: "code" };

async function loadError(promise: Promise<unknown>): Promise<SkillLoadError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SkillLoadError);
  return error as SkillLoadError;
}

describe("loadSkill", () => {
  it("loads every field: trimmed name and description, license, compatibility, metadata, allowed tools, extra, body", async () => {
    const dir = temp.skill(
      "full",
      skillText(
        "name: full\ndescription: >\n  Does everything.\nlicense: MIT\ncompatibility: Node 20\nallowed-tools: Read Bash(git:*)\nmetadata:\n  team: infra\nversion: 2.1",
        "# Full\n\nSteps.",
      ),
    );
    const skill = await loadSkill(dir, { origin });
    expect(skill).toMatchObject({
      name: "full",
      description: "Does everything.",
      license: "MIT",
      compatibility: "Node 20",
      allowedTools: ["Read", "Bash(git:*)"],
      metadata: { team: "infra" },
      extra: { version: "2.1" },
      body: "# Full\n\nSteps.",
      dir,
      file: join(dir, "SKILL.md"),
      origin,
    });
    expect(skill.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["unknown-field"]);
  });

  it("hashes the raw bytes (a CRLF file hashes differently from its LF twin but parses the same)", async () => {
    const lf = skillText("name: crlf\ndescription: Line ends.");
    const dir = temp.skill("crlf", lf.replace(/\n/g, "\r\n"));
    const skill = await loadSkill(dir, { origin });
    expect(skill.hash).toBe(
      createHash("sha256")
        .update(readFileSync(join(dir, "SKILL.md")))
        .digest("hex"),
    );
    expect(skill.hash).not.toBe(createHash("sha256").update(lf).digest("hex"));
    expect(skill.description).toBe("Line ends.");
  });

  it("loads a rule-breaking skill leniently, carrying its diagnostics", async () => {
    const dir = temp.skill("folder", skillText("name: Other Name\ndescription: Breaks rules.\nversion: 1"));
    const skill = await loadSkill(dir, { origin });
    expect(skill.name).toBe("Other Name");
    expect(skill.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "unknown-field",
      "name-lowercase",
      "name-chars",
      "name-dir-mismatch",
    ]);
  });

  it("loads a skill whose YAML uses a flow list, with a yaml-invalid diagnostic and the list's entries", async () => {
    const dir = temp.skill(
      "flow",
      skillText("name: flow\ndescription: Flow list.\nallowed-tools: ['Azure MCP/docs', Read]"),
    );
    const skill = await loadSkill(dir, { origin });
    expect(skill.allowedTools).toEqual(["Azure MCP/docs", "Read"]);
    expect(skill.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["yaml-invalid"]);
  });

  it("refuses a rule-breaking skill with strict: true, throwing SkillLoadError with the error diagnostics", async () => {
    const dir = temp.skill("strict-folder", skillText("name: other\ndescription: Mismatch.", ""));
    const error = await loadError(loadSkill(dir, { origin, strict: true }));
    expect(error.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["name-dir-mismatch"]);
    expect(error.code).toBe("name-dir-mismatch");
    expect(error.path).toBe(join(dir, "SKILL.md"));
  });

  it("loads a skill with only warnings even when strict", async () => {
    const dir = temp.skill("warned", skillText("name: warned\ndescription: Empty body.", ""));
    const skill = await loadSkill(dir, { origin, strict: true });
    expect(skill.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["body-empty"]);
  });

  it("refuses a skill without a usable description even when lenient, explaining why", async () => {
    const error = await loadError(
      loadSkill(temp.skill("no-description", skillText("name: no-description")), { origin }),
    );
    expect(error.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["description-missing"]);
  });

  it("explains a missing name even when a strict-YAML violation stopped the field checks", async () => {
    const error = await loadError(
      loadSkill(temp.skill("flow-no-name", skillText("description: x\ntags: [a]")), { origin }),
    );
    expect(error.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["yaml-invalid", "name-missing"]);
  });

  it("refuses unreadable files with their diagnostic: missing folder, missing SKILL.md, too large", async () => {
    expect((await loadError(loadSkill(join(temp.root(), "absent"), { origin }))).code).toBe("skill-dir-missing");
    expect((await loadError(loadSkill(temp.root(), { origin }))).code).toBe("skill-md-missing");
    expect(
      (await loadError(loadSkill(temp.skill("big", skillText("name: big\ndescription: x")), { origin, maxBytes: 10 })))
        .code,
    ).toBe("file-too-large");
  });

  it("refuses a YAML bomb and a SKILL.md that is a folder, whatever the strictness", async () => {
    const bomb = temp.skill(
      "bomb",
      skillText(`name: bomb\ndescription: x\n${yamlBomb().split("\n").slice(2).join("\n")}`),
    );
    expect((await loadError(loadSkill(bomb, { origin }))).diagnostics.map((diagnostic) => diagnostic.code)).toContain(
      "yaml-alias-limit",
    );
    const folder = join(temp.root(), "folder-skill");
    mkdirSync(join(folder, "SKILL.md"), { recursive: true });
    expect((await loadError(loadSkill(folder, { origin }))).code).toBe("not-a-regular-file");
  });

  it("checks its options once: origin required, maxBytes a positive integer, strict a boolean", async () => {
    const dir = temp.skill("options", skillText("name: options\ndescription: x"));
    await expect(loadSkill(dir, {} as never)).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(loadSkill(dir, { origin, maxBytes: -1 })).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(loadSkill(dir, { origin, strict: "yes" as never })).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});

describe("loadSkillFile", () => {
  it("returns metadata without the body, the body, and the identity of the file read", async () => {
    const dir = temp.skill("identity", skillText("name: identity\ndescription: x", "Body text."));
    const loaded = await loadSkillFile(dir, { origin });
    const stats = statSync(join(dir, "SKILL.md"));
    expect(loaded.identity).toEqual({ mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino });
    expect(loaded.body).toBe("Body text.");
    expect("body" in loaded.metadata).toBe(false);
    expect(loaded.metadata.name).toBe("identity");
  });
});

describe("loadSkillFromText", () => {
  it("loads a skill defined in code without a folder: empty dir and file, no name/folder check", () => {
    const skill = loadSkillFromText(skillText("name: greeting\ndescription: Greets people.", "Say hello."), {
      origin: codeOrigin,
    });
    expect(skill).toMatchObject({ name: "greeting", dir: "", file: "", body: "Say hello.", diagnostics: [] });
    expect(skill.hash).toBe(
      createHash("sha256").update(skillText("name: greeting\ndescription: Greets people.", "Say hello.")).digest("hex"),
    );
  });

  it("names the code source in messages and refuses rule breakers when strict", () => {
    let caught: unknown;
    try {
      loadSkillFromText(skillText("name: Greeting\ndescription: x"), { origin: codeOrigin, strict: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkillLoadError);
    expect((caught as SkillLoadError).message).toContain("code:test");
    expect((caught as SkillLoadError).diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["name-lowercase"]);
  });

  it("checks the name against dirName when one is given", () => {
    const skill = loadSkillFromText(skillText("name: a\ndescription: x"), { origin: codeOrigin, dirName: "b" });
    expect(skill.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["name-dir-mismatch"]);
  });
});
