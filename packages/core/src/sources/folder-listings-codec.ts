import {
  frontDecoded,
  isDecimal,
  isPlainName,
  isPlainRelativePath,
  sharedPrefixLength,
} from "../internal/snapshot-value-checks.js";

// How a folder source's listings are stored in a registry snapshot: one array per field instead of one object per
// folder, folder paths relative to the source root and front-coded (the length shared with the previous path plus the
// rest), sub-folder names joined by "/" (a name never holds one). At 10 000 skill folders this is about a quarter of
// the bytes of one object per folder, and a few arrays instead of 30 000 objects to parse and keep.

/** The stat fields a folder listing is keyed by. */
export interface FolderStamp {
  ino: number;
  mtimeNs: string;
  ctimeNs: string;
}

/** One folder's listing, as the walker keeps it. */
export interface FolderListing {
  folder: string;
  stamp: FolderStamp;
  skillFileName: "SKILL.md" | "skill.md" | undefined;
  /** Absolute paths of the sub-folders entered. */
  subfolders: string[];
  /** Listed within the racy window of the folder's last change (stored in the `verify` column). */
  racy: boolean;
}

/** The listings as stored. All arrays have `count` items. */
export interface StoredFolderListings {
  layout: 2;
  count: number;
  /** Characters the root-relative path shares with the previous one. */
  pathShared: number[];
  pathRest: string[];
  ino: number[];
  mtimeNs: string[];
  /** "" when equal to `mtimeNs`. */
  ctimeNs: string[];
  /** 0: no SKILL.md, 1: `SKILL.md`, 2: `skill.md`. */
  skill: number[];
  /** Sub-folder names joined by "/". */
  subfolders: string[];
  verify: number[];
}

const SKILL_FILE_NAMES = [undefined, "SKILL.md", "skill.md"] as const;
/** The sub-folders of every folder without any (most: skill folders), one frozen array rather than one each. */
const NO_SUBFOLDERS = Object.freeze([]) as unknown as string[];

/** Stores listings of folders under `root` (others are left out). */
export function encodeFolderListings(listings: Iterable<FolderListing>, root: string): StoredFolderListings {
  const stored: StoredFolderListings = {
    layout: 2,
    count: 0,
    pathShared: [],
    pathRest: [],
    ino: [],
    mtimeNs: [],
    ctimeNs: [],
    skill: [],
    subfolders: [],
    verify: [],
  };
  const sorted = [...listings].filter(({ folder }) => folder === root || folder.startsWith(`${root}/`));
  sorted.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  let previous = "";
  for (const listing of sorted) {
    const relative = listing.folder.slice(root.length + 1);
    const names = listing.subfolders.map((sub) => sub.slice(listing.folder.length + 1));
    if (listing.subfolders.some((sub, i) => sub !== `${listing.folder}/${names[i]}` || !isPlainName(names[i])))
      continue;
    const shared = sharedPrefixLength(previous, relative);
    stored.pathShared.push(shared);
    stored.pathRest.push(relative.slice(shared));
    previous = relative;
    stored.ino.push(listing.stamp.ino);
    stored.mtimeNs.push(listing.stamp.mtimeNs);
    stored.ctimeNs.push(listing.stamp.ctimeNs === listing.stamp.mtimeNs ? "" : listing.stamp.ctimeNs);
    stored.skill.push(listing.skillFileName === undefined ? 0 : listing.skillFileName === "SKILL.md" ? 1 : 2);
    stored.subfolders.push(names.join("/"));
    stored.verify.push(listing.racy ? 1 : 0);
    stored.count++;
  }
  return stored;
}

/**
 * Reads stored listings back for folders under `root`, checking every field (they come from a snapshot file, which
 * is untrusted). Returns undefined when anything is malformed; never throws.
 */
export function decodeFolderListings(value: unknown, root: string): FolderListing[] | undefined {
  const columns = checkColumns(value);
  if (!columns) return undefined;
  const listings: FolderListing[] = new Array(columns.count);
  let previous = "";
  for (let i = 0; i < columns.count; i++) {
    const relative = frontDecoded(previous, columns.pathShared[i], columns.pathRest[i]);
    if (relative === undefined || (relative !== "" && !isPlainRelativePath(relative))) return undefined;
    previous = relative;
    const listing = decodeListing(columns, i, relative === "" ? root : `${root}/${relative}`);
    if (!listing) return undefined;
    listings[i] = listing;
  }
  return listings;
}

const COLUMNS = ["pathShared", "pathRest", "ino", "mtimeNs", "ctimeNs", "skill", "subfolders", "verify"] as const;

/** The columns once the layout, count and lengths are checked. */
function checkColumns(value: unknown): StoredFolderListings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const stored = value as Partial<Record<keyof StoredFolderListings, unknown>>;
  const count = stored.count;
  if (stored.layout !== 2 || typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) return undefined;
  for (const key of COLUMNS)
    if (!Array.isArray(stored[key]) || (stored[key] as unknown[]).length !== count) return undefined;
  return stored as StoredFolderListings;
}

/** The listing of `folder` stored at `i`, or undefined when a field is malformed. */
function decodeListing(columns: StoredFolderListings, i: number, folder: string): FolderListing | undefined {
  const ino = columns.ino[i];
  const mtimeNs = columns.mtimeNs[i];
  const ctimeNs = columns.ctimeNs[i];
  if (typeof ino !== "number" || !Number.isFinite(ino) || !isDecimal(mtimeNs)) return undefined;
  if (ctimeNs !== "" && !isDecimal(ctimeNs)) return undefined;
  const skill = columns.skill[i];
  if (skill !== 0 && skill !== 1 && skill !== 2) return undefined;
  const subfolders = columns.subfolders[i];
  if (typeof subfolders !== "string") return undefined;
  // Most folders (skill folders) have none: no array split, checked or mapped for them.
  if (subfolders !== "" && !isPlainRelativePath(subfolders)) return undefined;
  const verify = columns.verify[i];
  if (verify !== 0 && verify !== 1) return undefined;
  return {
    folder,
    stamp: { ino, mtimeNs, ctimeNs: ctimeNs === "" ? mtimeNs : ctimeNs },
    skillFileName: SKILL_FILE_NAMES[skill],
    subfolders: subfolders === "" ? NO_SUBFOLDERS : subfolderPaths(folder, subfolders),
    racy: verify === 1,
  };
}

/** The absolute paths of the sub-folder names joined by "/" (checked) under `folder`. */
function subfolderPaths(folder: string, names: string): string[] {
  const paths: string[] = [];
  const prefix = `${folder}/`;
  let start = 0;
  for (let end = names.indexOf("/"); end !== -1; end = names.indexOf("/", start)) {
    paths.push(prefix + names.slice(start, end));
    start = end + 1;
  }
  paths.push(prefix + names.slice(start));
  return paths;
}
