import { describe, expect, it } from "vitest";
import {
  applyChanges,
  ArrayDocuments,
  DOCS_16_BIT,
  EMPTY_STATE,
  sumLengths,
  type IndexState,
} from "../search/index-state.js";
import { TermTable } from "../search/term-table.js";
import { analyzeDocument } from "../search/indexed-document.js";
import { buildQuerySlots } from "../search/query-slots.js";
import { rankDocuments } from "../search/rank-documents.js";
import { resolveSearchIndexOptions } from "../search/search-index-options.js";
import { decodeSearchIndex, encodeSearchIndex, metadataCheck, metadataDigest } from "./search-index-codec.js";

const options = resolveSearchIndexOptions({});
const state = applyChanges(
  EMPTY_STATE,
  [],
  [
    { name: "pdf-tools", description: "Fill PDF forms", body: "# PDF\n\nMerge 写周报 pages, merge again." },
    { name: "weather", description: "Forecast for a city", body: "# Weather\n\nCall the API. café ☕" },
    { name: "sql-review", description: "Review SQL queries", body: "## Plans\nindexes, full scans, merge joins" },
  ].map((document) => analyzeDocument({ ...document, path: `/s/${document.name}/SKILL.md` })),
);
const keyOf = (id: number) => ({ hash: id.toString(16).padStart(64, "a"), name: `n${id}`, description: "d" });
const QUERIES = ["merge pdf", "weather forecast", "sql merge plans", "写周报", "cafe"];

function rankAll(from: IndexState): string {
  return JSON.stringify(
    QUERIES.map((query) =>
      rankDocuments(from, buildQuerySlots(query, from, options.synonyms, options.expansion), options.ranking),
    ),
  );
}

describe("stored search index codec", () => {
  it("reads back exactly what it wrote: the arrays, the vocabulary, the keys and the rankings", () => {
    const bytes = encodeSearchIndex(state, keyOf);
    const decoded = decodeSearchIndex(bytes)!;
    expect(decoded).toBeDefined();
    const read = { ...decoded.state, docs: state.docs };
    expect([...read.postingDocs]).toEqual([...state.postingDocs]);
    expect([...read.postingPacked]).toEqual([...state.postingPacked]);
    expect([...read.headCounts]).toEqual([...state.headCounts]);
    expect(read.terms.text).toBe(state.terms.text);
    expect(read.lengthSums).toEqual(state.lengthSums);
    expect(Buffer.from(decoded.hashes.subarray(32, 64)).toString("hex")).toBe(keyOf(1).hash);
    expect(decoded.checks[2]).toBe(metadataCheck("n2", "d"));
    expect(decoded.digest).toBe(
      metadataDigest(
        3,
        (i) => keyOf(i).name,
        (i) => keyOf(i).description,
      ),
    );
    expect(rankAll(read)).toBe(rankAll(state));
    // Unaligned input is copied, not refused.
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    expect(decodeSearchIndex(shifted.subarray(1))?.state.count).toBe(3);
  });

  it("refuses every truncation and extension, and never throws on bytes flipped anywhere", () => {
    const bytes = encodeSearchIndex(state, keyOf);
    for (let length = 0; length < bytes.length; length++)
      expect(decodeSearchIndex(bytes.subarray(0, length))).toBeUndefined();
    expect(decodeSearchIndex(Buffer.concat([bytes, Buffer.alloc(4)]))).toBeUndefined();
    let refused = 0;
    for (let at = 0; at < bytes.length; at++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const copy = Buffer.from(bytes);
        copy[at] = copy[at]! ^ mask;
        const decoded = decodeSearchIndex(copy);
        if (!decoded) {
          refused++;
          continue;
        }
        // Accepted (a change no invariant covers, e.g. a frequency or a length): rankings still compute.
        const docs = {
          nameOf: (id: number) => `d${id}`,
          detailOf: (id: number) => ({ name: `d${id}`, description: "", path: "" }),
        };
        expect(() => rankAll({ ...decoded.state, docs })).not.toThrow();
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it("stores 32-bit document ids past DOCS_16_BIT documents (16-bit below)", () => {
    expect(state.postingDocs).toBeInstanceOf(Uint16Array);
    const count = DOCS_16_BIT + 5;
    const lengths = new Int32Array(count * 4).fill(1);
    const big: IndexState = {
      count,
      docs: new ArrayDocuments([]),
      lengths,
      lengthSums: sumLengths(lengths),
      terms: TermTable.fromSorted(["alpha", "omega"]),
      starts: Int32Array.from([0, 2, 3]),
      postingDocs: Int32Array.from([3, count - 1, DOCS_16_BIT + 1]),
      postingPacked: Uint32Array.from([1, 16, 1 << 18]),
      headCounts: Int32Array.from([2, 0]),
    };
    const decoded = decodeSearchIndex(encodeSearchIndex(big, keyOf))!;
    expect(decoded.state.postingDocs).toBeInstanceOf(Int32Array);
    expect([...decoded.state.postingDocs]).toEqual([3, count - 1, DOCS_16_BIT + 1]);
    expect([...decoded.state.headCounts]).toEqual([2, 0]);
  });
});
