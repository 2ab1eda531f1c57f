import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { identityFromBigStats } from "../skill/skill-file-identity.js";
import { decodeSnapshotEntries, encodeSnapshotEntries } from "./snapshot-entries-codec.js";
import type { StoredCandidate } from "./stored-candidate.js";

const hash = (digit: string) => digit.repeat(64);
const identity = {
  mtimeMs: 1_600_000_000_123,
  size: 42,
  ino: 7,
  mtimeNs: "1600000000123456789",
  ctimeNs: "1600000000123456789",
};

function entry(dir: string, overrides: Partial<StoredCandidate> = {}): StoredCandidate {
  const file = `${dir}/SKILL.md`;
  return {
    sourceId: "dir:/skills",
    dir,
    file,
    root: dir,
    identity,
    hash: hash("a"),
    metadata: {
      name: dir.split("/").pop()!,
      description: "Does things — with ünïcödé and 😀.",
      allowedTools: ["Read", "Bash(git:*)"],
      extra: { requires: { mcp: ["rube"] }, version: "1" },
      metadata: { author: "me" },
      license: "MIT",
      compatibility: "node",
      dependencies: { bins: ["git"], apt: [], uv: ["pandas"] },
      dir,
      file,
      hash: hash("a"),
      diagnostics: [
        { code: "yaml-invalid", severity: "error", message: `${file}:5:8: flow list`, path: file, line: 5, column: 8 },
        { code: "name-dir-mismatch", severity: "error", message: `${file}: name`, path: file, field: "name" },
        { code: "body-long", severity: "warning", message: `${file}: long`, path: file, line: 3 },
        { code: "other-file", severity: "warning", message: "no path prefix here", path: "/elsewhere/x" },
      ],
    },
    refused: [],
    racy: false,
    ...overrides,
  };
}

describe("snapshot entries codec", () => {
  it("gives back exactly the entries it stored: every field, diagnostics, roots, lower-case skill.md, refusals", () => {
    const refusedFile = "/skills/zz-broken/skill.md";
    const entries: StoredCandidate[] = [
      entry("/skills/alpha"),
      entry("/skills/alpha-two", { identity: { ...identity, ctimeNs: "1700000000000000001" }, racy: true }),
      entry("/skills/nested/beta", { root: "/skills/nested", sourceId: "npm:pkg" }),
      {
        sourceId: "dir:/skills",
        dir: "/skills/zz-broken",
        file: refusedFile,
        root: "/skills/zz-broken",
        identity: { ...identity, mtimeMs: 0, mtimeNs: "999", ctimeNs: "0" },
        hash: undefined,
        metadata: undefined,
        refused: [
          { code: "encoding-invalid", severity: "error", message: `${refusedFile}: not UTF-8`, path: refusedFile },
        ],
        racy: false,
      },
    ];
    const sources = ["dir:/skills", "npm:pkg"];
    const stored = JSON.parse(JSON.stringify(encodeSnapshotEntries(entries, sources)));
    expect(stored.count).toBe(4);
    expect(decodeSnapshotEntries(stored, sources)).toEqual({ ok: true, entries });
  });

  it("leaves out an entry whose paths or hash do not have the derived shape (it is read again, never mis-served)", () => {
    const odd = entry("/skills/odd", { file: "/skills/other/SKILL.md" });
    const hashMismatch = entry("/skills/hash");
    hashMismatch.metadata!.hash = hash("b");
    const stored = encodeSnapshotEntries([entry("/skills/ok"), odd, hashMismatch], ["dir:/skills"]);
    const decoded = decodeSnapshotEntries(JSON.parse(JSON.stringify(stored)), ["dir:/skills"]);
    expect(decoded.ok && decoded.entries.map((item) => item.dir)).toEqual(["/skills/ok"]);
  });

  it("derives mtimeMs from the nanosecond time exactly as a bigint stat gives it", () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One.") });
    const file = join(root, "one/SKILL.md");
    writeFileSync(file, skillMd("one", "Edited."));
    const real = identityFromBigStats(statSync(file, { bigint: true }));
    const stored = encodeSnapshotEntries([entry(join(root, "one"), { identity: real })], ["dir:/skills"]);
    const decoded = decodeSnapshotEntries(JSON.parse(JSON.stringify(stored)), ["dir:/skills"]);
    expect(decoded.ok && decoded.entries[0]!.identity).toEqual(real);
  });

  it("refuses malformed columns with the entry and field at fault", () => {
    const stored = () => JSON.parse(JSON.stringify(encodeSnapshotEntries([entry("/skills/a")], ["dir:/skills"])));
    const cases: Array<[(value: Record<string, unknown[]>) => void, string]> = [
      [(value) => (value.mtimeNs = ["01"]), "entry 0: bad 'identity.mtimeNs'"],
      [(value) => (value.dirShared = [1]), "entry 0: bad 'dir'"],
      [(value) => (value.fileNames = ["a/b"]), "bad 'entries.fileNames'"],
      [(value) => (value.root = [2]), "entry 0: bad 'root'"],
      [(value) => (value.hash = ["A".repeat(64)]), "entry 0: bad 'hash'"],
      [(value) => (value.verify = [true]), "entry 0: bad 'verify'"],
      [
        (value) => (value.metadata = [{ ...(value.metadata![0] as object), origin: {} }]),
        "entry 0: metadata 'origin' is not stored",
      ],
      [(value) => (value.diagnostics = [[["c", "error", 0, 1, "m", 0, -1]]]), "entry 0: bad metadata diagnostics"],
      [(value) => (value.size = []), "bad 'entries.size'"],
    ];
    for (const [edit, problem] of cases) {
      const value = stored();
      edit(value);
      expect(decodeSnapshotEntries(value, ["dir:/skills"])).toEqual({ ok: false, problem });
    }
  });

  it("names the first bad entry when several columns are bad in different entries", () => {
    const entries = ["/skills/a", "/skills/b", "/skills/c", "/skills/d"].map((dir) => entry(dir));
    const value = JSON.parse(JSON.stringify(encodeSnapshotEntries(entries, ["dir:/skills"])));
    value.verify[3] = 2;
    value.hash[2] = "not a hash";
    value.dirShared[1] = 999;
    expect(decodeSnapshotEntries(value, ["dir:/skills"])).toEqual({ ok: false, problem: "entry 1: bad 'dir'" });
    value.dirShared[1] = 0;
    value.dirRest[1] = "";
    expect(decodeSnapshotEntries(value, ["dir:/skills"])).toEqual({ ok: false, problem: "entry 1: bad 'dir'" });
    value.dirRest[1] = "/skills/b";
    expect(decodeSnapshotEntries(value, ["dir:/skills"])).toEqual({ ok: false, problem: "entry 2: bad 'hash'" });
    value.hash[2] = value.hash[0];
    expect(decodeSnapshotEntries(value, ["dir:/skills"])).toEqual({ ok: false, problem: "entry 3: bad 'verify'" });
  });
});
