import { z } from "zod";
import { isPlainName } from "./row-value-checks.js";

// The row JSON alternative to core's columnar folder-listings codec, measured by bench/snapshot-codec.ts: one JSON
// object per folder, its path relative to the source root ("" for the root itself) and its sub-folders by name, every
// field checked by a zod schema. Same exports and checks as packages/core/src/sources/folder-listings-codec.ts.

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
  /** Listed within the racy window of the folder's last change. */
  verify: boolean;
}

/** The listings as stored. */
export type StoredFolderListings = z.input<typeof storedListingsSchema>;

const decimal = z.string().regex(/^(?:0|[1-9][0-9]{0,29})$/, "not a decimal nanosecond time");
const relativePath = z
  .string()
  .refine((path) => path === "" || path.split("/").every(isPlainName), "not a path of folder names");

const storedListingsSchema = z.strictObject({
  layout: z.literal(3),
  folders: z.array(
    z.strictObject({
      /** Relative to the source root; "" for the root. */
      path: relativePath,
      ino: z.number(),
      mtimeNs: decimal,
      ctimeNs: decimal,
      skillFileName: z.enum(["SKILL.md", "skill.md"]).optional(),
      /** Names of the sub-folders entered. */
      subfolders: z.array(z.string().refine(isPlainName, "not a folder name")),
      verify: z.boolean(),
    }),
  ),
});

/** Stores listings of folders under `root` (others, and any whose sub-folders are not direct children, are left out). */
export function encodeFolderListings(listings: Iterable<FolderListing>, root: string): StoredFolderListings {
  const folders: StoredFolderListings["folders"] = [];
  for (const { folder, stamp, skillFileName, subfolders, verify } of listings) {
    if (folder !== root && !folder.startsWith(`${root}/`)) continue;
    const names = subfolders.map((sub) => sub.slice(folder.length + 1));
    if (subfolders.some((sub, i) => sub !== `${folder}/${names[i]}` || !isPlainName(names[i]))) continue;
    const path = folder === root ? "" : folder.slice(root.length + 1);
    folders.push({ path, ...stamp, skillFileName, subfolders: names, verify });
  }
  folders.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { layout: 3, folders };
}

/**
 * Reads stored listings back for folders under `root`, checking every field (they come from a snapshot file, which
 * is untrusted). Returns undefined when anything is malformed; never throws.
 */
export function decodeFolderListings(value: unknown, root: string): FolderListing[] | undefined {
  const parsed = storedListingsSchema.safeParse(value);
  if (!parsed.success) return undefined;
  return parsed.data.folders.map(({ path, ino, mtimeNs, ctimeNs, skillFileName, subfolders, verify }) => {
    const folder = path === "" ? root : `${root}/${path}`;
    return {
      folder,
      stamp: { ino, mtimeNs, ctimeNs },
      skillFileName,
      subfolders: subfolders.map((name) => `${folder}/${name}`),
      verify,
    };
  });
}
