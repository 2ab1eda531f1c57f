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
