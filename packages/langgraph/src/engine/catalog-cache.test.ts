import { createSkillRegistry, skillsFromCode } from "@skillgraph/core";
import { describe, expect, it } from "vitest";
import { engineContext } from "../__fixtures__/engine-context.js";
import { resolveOptions } from "../options/resolve-options.js";
import { BodyCache, VersionCaches } from "./catalog-cache.js";

describe("catalog-cache", () => {
  it("builds one cache per view version and rebuilds it only when the version changes", async () => {
    const { registry, context } = await engineContext();
    const first = context.versions.cacheFor(registry);
    expect(context.versions.cacheFor(registry)).toBe(first);
    expect(first.section).toContain("pdf-tools");
    expect(first.index.owners.get("make_pdf")).toEqual(["pdf-tools"]);
    const view = registry.view({ exclude: ["pdf-tools"] });
    expect(context.versions.cacheFor(view)).not.toBe(first);
    expect(context.versions.cacheFor(view).section).not.toContain("pdf-tools");
  });

  it("gives an empty view no request skills tools (the full set stays available to serve)", async () => {
    const empty = await createSkillRegistry({ sources: [skillsFromCode([])] });
    const cache = new VersionCaches(resolveOptions({ skills: empty })).cacheFor(empty);
    expect(cache.requestSkillsTools).toEqual([]);
    expect(cache.skillsTools.map((tool) => tool.name)).toContain("read_skill");
    expect(cache.section).toBe("");
  });

  it("shares the rendered list and the skills tools between engines over one registry generation", async () => {
    const { registry } = await engineContext();
    const one = new VersionCaches(resolveOptions({ skills: registry })).cacheFor(registry);
    const two = new VersionCaches(resolveOptions({ skills: registry })).cacheFor(registry);
    expect(two.skillsTools).toBe(one.skillsTools);
    expect(two.section).toBe(one.section);
    // other tool settings or list settings: their own
    const narrowEnum = new VersionCaches(resolveOptions({ skills: registry, enumThreshold: 0 })).cacheFor(registry);
    expect(narrowEnum.skillsTools).not.toBe(one.skillsTools);
    const otherPreamble = new VersionCaches(resolveOptions({ skills: registry, prompt: { preamble: "Skills here:" } }));
    expect(otherPreamble.cacheFor(registry).section).toContain("Skills here:");
    expect(one.section).not.toContain("Skills here:");
    // another skills list (another registry, or a new generation of this one) gets tools naming its own skills
    const grown = await createSkillRegistry({
      sources: [skillsFromCode([{ name: "extra-skill", description: "An extra skill.", body: "EXTRA" }])],
    });
    const third = new VersionCaches(resolveOptions({ skills: grown })).cacheFor(grown);
    expect(third.skillsTools).not.toBe(one.skillsTools);
    expect(third.section).toContain("extra-skill");
  });

  it("keeps at most its capacity of bodies and files, least recently used dropped first", async () => {
    const { registry } = await engineContext();
    let reads = 0;
    const counting = new Proxy(registry, {
      get: (target, key) =>
        key === "readBody" ? (name: string) => (reads++, target.readBody(name)) : Reflect.get(target, key),
    });
    const bodies = new BodyCache(2);
    await bodies.current(counting, "notes", registry.get("notes")!.hash);
    await bodies.current(counting, "weather", registry.get("weather")!.hash);
    await bodies.current(counting, "notes", registry.get("notes")!.hash);
    expect(reads).toBe(2);
    await bodies.current(counting, "git-helper", registry.get("git-helper")!.hash);
    expect(bodies.peek("weather", registry.get("weather")!.hash)).toBeUndefined();
    expect(bodies.peek("notes", registry.get("notes")!.hash)).toBe("NOTES BODY");
    expect(await bodies.file(registry, "pdf-tools", "references/api.md", 1000)).toBe("PDF API DOC");
    expect(await bodies.file(registry, "pdf-tools", "../notes/SKILL.md", 1000)).toMatch(/cannot be read now/);
  });
});
