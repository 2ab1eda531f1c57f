import type { SkillMetadata } from "../skill/skill-types.js";
import type { LoadedSkill } from "./skill-fields.js";

/**
 * A catalog's skills sorted by name (code-unit order), their metadata listed when first asked for: a cold start from
 * the snapshot makes no skill's metadata until something lists, looks up or renders skills. Catalogs of reloads that
 * changed nothing share it (and so the same list).
 */
export class SortedSkills {
  private made: SkillMetadata[] | undefined;

  private constructor(
    private readonly sortedNames: string[],
    private readonly winners: readonly LoadedSkill[],
  ) {}

  /** The skills of `byName` (each under its name) sorted by name. */
  static of(byName: ReadonlyMap<string, LoadedSkill>): SortedSkills {
    const pairs = [...byName];
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new SortedSkills(
      pairs.map((pair) => pair[0]),
      pairs.map((pair) => pair[1]),
    );
  }

  /** Every skill's metadata, sorted by name (made on the first call). */
  list(): SkillMetadata[] {
    return (this.made ??= this.winners.map((entry) => entry.metadata));
  }

  /** Every skill's name, sorted (without making their metadata). */
  names(): string[] {
    return this.made ? this.made.map((skill) => skill.name) : this.sortedNames;
  }
}
