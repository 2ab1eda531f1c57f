import { describe, expect, it } from "vitest";
import { decodeFolderListings, encodeFolderListings, type FolderListing } from "./folder-listings-codec.js";

const stamp = { ino: 3, mtimeNs: "1600000000000000001", ctimeNs: "1600000000000000001" };

describe("folder listings codec", () => {
  it("gives back the listings of folders under the root, with their stamps, SKILL.md name and sub-folders", () => {
    const listings: FolderListing[] = [
      { folder: "/r", stamp, skillFileName: undefined, subfolders: ["/r/a", "/r/b b"], racy: false },
      {
        folder: "/r/a",
        stamp: { ...stamp, ctimeNs: "1700000000000000000" },
        skillFileName: "SKILL.md",
        subfolders: [],
        racy: true,
      },
      { folder: "/r/b b", stamp, skillFileName: "skill.md", subfolders: ["/r/b b/c"], racy: false },
      { folder: "/r/b b/c", stamp, skillFileName: "SKILL.md", subfolders: [], racy: false },
    ];
    const stored = JSON.parse(JSON.stringify(encodeFolderListings([...listings].reverse(), "/r")));
    expect(decodeFolderListings(stored, "/r")).toEqual(listings);
    // A folder outside the root is not stored.
    expect(encodeFolderListings([{ ...listings[1]!, folder: "/other/a" }], "/r").count).toBe(0);
  });

  it("refuses anything malformed: paths that climb out, separators in names, bad stamps, wrong lengths", () => {
    const good = () =>
      JSON.parse(
        JSON.stringify(
          encodeFolderListings(
            [{ folder: "/r/a", stamp, skillFileName: "SKILL.md", subfolders: ["/r/a/x"], racy: false }],
            "/r",
          ),
        ),
      );
    expect(decodeFolderListings(good(), "/r")).toHaveLength(1);
    const edits: Array<(value: Record<string, unknown>) => void> = [
      (value) => (value.pathRest = ["../etc"]),
      (value) => (value.pathRest = ["a//b"]),
      (value) => (value.subfolders = ["x/.."]),
      (value) => (value.subfolders = [".."]),
      (value) => (value.mtimeNs = ["1e9"]),
      (value) => (value.skill = [3]),
      (value) => (value.pathShared = [5]),
      (value) => (value.verify = []),
      (value) => (value.layout = 1),
    ];
    for (const edit of edits) {
      const value = good();
      edit(value);
      expect(decodeFolderListings(value, "/r")).toBeUndefined();
    }
  });
});
