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
    this.remember(key, body);
    return body;
  }

  /**
   * A reference file of a loaded skill, read through the registry's confined reader (size-capped, binary refused),
   * cached per catalog version; a file that cannot be read any more gives a note instead of throwing.
   */
  async file(catalog: SkillCatalog, name: string, path: string, maxBytes: number): Promise<string> {
    const key = `file\u0000${catalog.version}\u0000${name}\u0000${path}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    let text: string;
    try {
      const file = await catalog.readFile(name, path, { maxBytes });
      text = file.size > maxBytes ? `[File '${path}' is over the ${maxBytes}-byte limit.]` : file.content;
    } catch (error) {
      text = `[File '${path}' of skill '${name}' cannot be read now: ${(error as Error).message}]`;
    }
    this.remember(key, text);
    return text;
  }

  private remember(key: string, value: string): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
