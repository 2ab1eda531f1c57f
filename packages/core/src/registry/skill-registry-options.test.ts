import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { parseOptions } from "../errors/parse-options.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { createSkillRegistry } from "./create-skill-registry.js";
import { skillRegistryOptionsSchema } from "./skill-registry-options.js";

describe("createSkillRegistry's options schema", () => {
  it("fills every default from the schema", () => {
    expect(parseOptions(skillRegistryOptionsSchema, { sources: [] })).toEqual({
      sources: [],
      strict: false,
      maxSkillMdBytes: 1024 * 1024,
      searchIndex: "lazy",
      snapshot: true,
      watch: undefined,
    });
    expect(parseOptions(skillRegistryOptionsSchema, { sources: [], watch: true }).watch).toEqual({
      debounceMs: 50,
      pollMs: 1000,
    });
    expect(parseOptions(skillRegistryOptionsSchema, { sources: [], watch: { pollMs: 1 } }).watch).toEqual({
      debounceMs: 50,
      pollMs: 10,
    });
  });

  const source = skillsFromDirectory("/nonexistent-skills", { optional: true });
  it.each([
    [{ sources: "x" }, "Invalid option 'sources': must be an array of skill sources"],
    [{ sources: [source, source] }, "Invalid option 'sources': source 'dir:/nonexistent-skills' is listed twice"],
    [{ sources: [null] }, "Invalid option 'sources[0]': must be a skill source (with an id)"],
    [{ sources: [], maxSkillMdBytes: 1.5 }, "Invalid option 'maxSkillMdBytes': must be a positive integer"],
    [{ sources: [], watch: { debounceMs: -1 } }, "Invalid option 'watch.debounceMs': must be a non-negative number"],
    [{ sources: [], watch: "yes" }, "Invalid option 'watch': must be a boolean or { debounceMs, pollMs }"],
    [{ sources: [], embeddings: {} }, "Invalid option 'embeddings': must have embedDocuments() and embedQuery()"],
    [{ sources: [], searchIndex: "now" }, `Invalid option 'searchIndex': must be "lazy" or "eager"`],
    [{ sources: [], snapshot: "" }, "Invalid option 'snapshot': must be a boolean or a snapshot file path"],
  ])("refuses %j naming the option", async (options, message) => {
    const refused = createSkillRegistry(options as never);
    await expect(refused).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(refused).rejects.toThrow(message);
  });
});
