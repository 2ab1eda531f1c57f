import type { SkillCatalog } from "../internal/core.js";

/** Skill bodies by `name@hash`, least recently used dropped first; bodies never go into graph state. */
export class BodyCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity = 64) {}

  /** The cached body for this exact hash, if any. */
  peek(name: string, hash: string): string | undefined {
    return this.entries.get(`${name}@${hash}`);
  }

  /** The body of the catalog's current version of `name` (read once per hash). */
  async current(catalog: SkillCatalog, name: string, hash: string): Promise<string> {
    const key = `${name}@${hash}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const body = await catalog.readBody(name);
    this.entries.set(key, body);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return body;
  }
}
