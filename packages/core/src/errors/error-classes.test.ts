import { describe, expect, it, vi } from "vitest";
import { InvalidOptionsError } from "./invalid-options-error.js";
import { SkillDriftError } from "../load-state/skill-drift-error.js";
import { SkillLoadError } from "../skill/skill-load-error.js";
import { SkillNotFoundError } from "./skill-not-found-error.js";
import { SkillPathError } from "./skill-path-error.js";
import { SkillgraphError } from "./skillgraph-error.js";

type ErrorModule = Record<string, { isInstance(error: unknown): boolean } & (new (...args: never[]) => Error)>;

/** One instance of each class, built from a module namespace (the first copy or a second one). */
function instances(module: ErrorModule): Record<string, Error> {
  const make = (name: string, options: unknown) =>
    new (module[name] as unknown as new (options: unknown) => Error)(options);
  return {
    SkillgraphError: make("SkillgraphError", { code: "invalid-load-state", message: "bad state" }),
    SkillNotFoundError: make("SkillNotFoundError", { skillName: "pdf", suggestions: ["pdf-tools"] }),
    SkillPathError: make("SkillPathError", {
      skillName: "pdf",
      requestedPath: "../x",
      reason: "traversal",
      message: "leaves the folder",
    }),
    SkillLoadError: make("SkillLoadError", { path: "/skills/pdf", diagnostics: [] }),
    SkillDriftError: make("SkillDriftError", { drift: [{ name: "pdf", kind: "changed" }] }),
    InvalidOptionsError: make("InvalidOptionsError", {
      option: "maxLoadedSkills",
      value: -1,
      message: "must be positive",
    }),
  };
}

/** Loads every error class again as a fresh module instance: a real second copy (other class objects, same markers). */
async function secondCopy(): Promise<ErrorModule> {
  vi.resetModules();
  const modules = await Promise.all([
    import("./skillgraph-error.js"),
    import("./skill-not-found-error.js"),
    import("./skill-path-error.js"),
    import("../skill/skill-load-error.js"),
    import("../load-state/skill-drift-error.js"),
    import("./invalid-options-error.js"),
  ]);
  return Object.assign({}, ...modules) as ErrorModule;
}

const first = {
  SkillgraphError,
  SkillNotFoundError,
  SkillPathError,
  SkillLoadError,
  SkillDriftError,
  InvalidOptionsError,
} as unknown as ErrorModule;
const names = Object.keys(first);

describe("error classes: isInstance", () => {
  it("each subclass defines its own isInstance (none inherits the base one)", () => {
    for (const name of names) expect(Object.hasOwn(first[name]!, "isInstance"), name).toBe(true);
  });

  it.each(names)("%s.isInstance accepts its own class and no other, across two copies of the package", async (name) => {
    const copy = await secondCopy();
    expect(copy[name]).not.toBe(first[name]); // really another copy: instanceof fails across it
    for (const [otherName, error] of Object.entries(instances(copy))) {
      expect(error instanceof first[name]!, `${otherName} instanceof first-copy ${name}`).toBe(false);
      const expected = name === "SkillgraphError" || name === otherName;
      expect(first[name]!.isInstance(error), `${name}.isInstance(copy ${otherName})`).toBe(expected);
      expect(copy[name]!.isInstance(instances(first)[otherName]), `copy ${name}.isInstance(${otherName})`).toBe(
        expected,
      );
    }
  });

  it("rejects what is not a skillgraph error, including look-alikes without the marker", () => {
    const lookAlike = Object.assign(new Error("x"), { code: "skill-not-found", name: "SkillNotFoundError" });
    const wrongValue = {
      [Symbol.for("skillgraph.error.SkillNotFoundError")]: "true",
      [Symbol.for("skillgraph.error")]: 1,
    };
    for (const value of [undefined, null, 0, "skill-not-found", {}, new Error("x"), lookAlike, wrongValue]) {
      for (const name of names)
        expect(first[name]!.isInstance(value), `${name}.isInstance(${String(value)})`).toBe(false);
    }
  });

  it("keeps the fields callers branch on, and links each code to its docs", () => {
    const error = new SkillPathError({
      skillName: "pdf",
      requestedPath: "/etc/passwd",
      reason: "absolute",
      message: "absolute paths are not allowed",
    });
    expect([error.code, error.reason, error.name]).toEqual(["skill-path-absolute", "absolute", "SkillPathError"]);
    expect(error.docsUrl).toMatch(/\/docs\/errors\.md#skill-path-absolute$/);
    const load = new SkillLoadError({
      path: "/s/pdf",
      diagnostics: [{ code: "name-dir-mismatch", severity: "error", message: "m", path: "/s/pdf/SKILL.md" }],
    });
    expect([load.code, load.docsUrl.endsWith("/docs/diagnostics.md#name-dir-mismatch")]).toEqual([
      "name-dir-mismatch",
      true,
    ]);
    const unknown = new SkillLoadError({
      path: "/s/pdf",
      diagnostics: [{ code: "made-up", severity: "error", message: "m", path: "/s/pdf" }],
    });
    expect(unknown.code).toBe("skill-load-failed");
    expect(new SkillgraphError({ code: "package-not-found", message: "m", cause: 1 }).cause).toBe(1);
  });
});
