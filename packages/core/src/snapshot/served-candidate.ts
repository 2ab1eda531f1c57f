import type { SkillDiagnostic, SkillMetadata, SkillOrigin } from "../skill/skill-types.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { DiskSkillCandidate } from "../sources/skill-source.js";
import type { StoredLoadResult, StoredMetadata } from "./stored-metadata.js";

/**
 * A SKILL.md a cold start served unchanged from the snapshot file: a `LoadedCandidate` whose metadata (and refusal)
 * is made from the snapshot when first read (a list, a lookup, a render), not while loading. Its name, description
 * and hash are read without making it (see skill-fields.ts).
 */
export class ServedCandidate implements LoadedCandidate {
  body: string | undefined = undefined;
  readonly racy = false;
  private readonly storedName: string | undefined;
  private made: StoredLoadResult | undefined = undefined;

  readonly sourceId: string;

  /** Entry `at` of `stored`, found unchanged as `candidate` of the source whose origin is `origin`. */
  constructor(
    readonly candidate: DiskSkillCandidate,
    private readonly stored: StoredMetadata,
    private readonly at: number,
    private readonly origin: SkillOrigin,
  ) {
    this.sourceId = origin.sourceId;
    this.storedName = stored.name(at);
  }

  /** The skill's name, without making its metadata; undefined for a refused skill. */
  get name(): string | undefined {
    return this.made ? this.made.metadata?.name : this.storedName;
  }

  get metadata(): SkillMetadata | undefined {
    return this.load().metadata as SkillMetadata | undefined;
  }

  get refused(): SkillDiagnostic[] {
    return this.load().refused;
  }

  get hash(): string | undefined {
    return this.stored.hash(this.at);
  }

  /** The skill's description, without making its metadata. */
  get description(): string {
    return this.made?.metadata ? this.made.metadata.description : this.stored.description(this.at);
  }

  /** The metadata's content hash, without making it. */
  get metadataHash(): string | undefined {
    return this.made?.metadata ? this.made.metadata.hash : this.stored.hash(this.at);
  }

  /** The metadata's SKILL.md path, without making it. */
  get metadataFile(): string {
    return this.made?.metadata ? this.made.metadata.file : this.candidate.file;
  }

  private load(): StoredLoadResult {
    const { candidate } = this;
    return (this.made ??= this.stored.load(this.at, candidate.dir, candidate.file, this.origin));
  }
}
