// Loads every labelled query set (natural-queries, A–D in test/fixtures, the five-style development sets E1–E4c and
// E5a–E6c in test/fixtures, development sets since the confidence model was fitted on E5 and E6 was scored once) into one shape, so
// the style report and the tests read them the same way.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadNaturalQueries } from "../../packages/core/src/search/__fixtures__/load-corpus.js";

/** One labelled query; `folders`/`names` empty = off-topic (nothing should fit). */
export interface StyledQuery {
  id: string;
  query: string;
  kind: string;
  /** Acceptable skill folders, corpus-relative ("skills/owner__repo/name"). */
  folders: string[];
  /** Acceptable skill names (the expected one and `alsoAcceptable`). */
  names: string[];
}

/** A named query set and whether it was tuned on. */
export interface QuerySet {
  label: string;
  file: string;
  heldOut: boolean;
  queries: StyledQuery[];
}

const FIXTURES = join(import.meta.dirname, "../../test/fixtures");

interface RawQuery {
  id?: string;
  query: string;
  kind?: string;
  expected: string | string[] | null;
  expectedFolder?: string | null;
  alsoAcceptable?: string[];
}

/** Reads one fixture file (A's bare array or the `{ queries }` shape of the others). */
export function readQuerySet(label: string, file: string, heldOut = false): QuerySet {
  const raw = JSON.parse(readFileSync(file, "utf8")) as RawQuery[] | { queries: RawQuery[] };
  const list = Array.isArray(raw) ? raw : raw.queries;
  const queries = list.map((item, i): StyledQuery => {
    const arrayExpected = Array.isArray(item.expected) ? item.expected : undefined;
    const folders = arrayExpected ?? (item.expectedFolder ? [item.expectedFolder] : []);
    const names =
      typeof item.expected === "string"
        ? [item.expected, ...(item.alsoAcceptable ?? [])]
        : [...(item.alsoAcceptable ?? [])];
    return {
      id: item.id ?? `${label}-${i + 1}`,
      query: item.query,
      kind: folders.length === 0 && names.length === 0 ? "off-topic" : (item.kind ?? "plain"),
      folders: folders.map((folder) => folder.replace(/^skills\//, "")),
      names: folders.length === 0 ? [] : names,
    };
  });
  return { label, file, heldOut, queries };
}

/** Every development set present (and any set marked held out only when `withHeldOut`; none is now). */
export function loadQuerySets(withHeldOut = false): QuerySet[] {
  const natural = loadNaturalQueries().map((item, i): StyledQuery => ({
    id: `n-${i + 1}`,
    query: item.query,
    kind: item.expected.length === 0 ? "off-topic" : "mixed",
    folders: item.expected,
    names: [],
  }));
  const sets: QuerySet[] = [{ label: "natural", file: "natural-queries.json", heldOut: false, queries: natural }];
  const files: Array<[string, string, boolean]> = [
    ["A", "search-development-queries-a.json", false],
    ["B", "search-development-queries-b.json", false],
    ["C", "search-development-queries-c.json", false],
    ["D", "search-development-queries-d.json", false],
    ["E1", "search-development-queries-e1.json", false],
    ["E2", "search-development-queries-e2.json", false],
    ["E3", "search-development-queries-e3.json", false],
    ["E4a", "search-development-queries-e4a.json", false],
    ["E4b", "search-development-queries-e4b.json", false],
    ["E4c", "search-development-queries-e4c.json", false],
    ["E5a", "search-held-out-queries-e5a.json", false],
    ["E5b", "search-held-out-queries-e5b.json", false],
    ["E5c", "search-held-out-queries-e5c.json", false],
    ["E6a", "search-held-out-queries-e6a.json", false],
    ["E6b", "search-held-out-queries-e6b.json", false],
    ["E6c", "search-held-out-queries-e6c.json", false],
    ["E7a", "search-held-out-queries-e7a.json", false],
    ["E7b", "search-held-out-queries-e7b.json", false],
    ["E7c", "search-held-out-queries-e7c.json", false],
    ["E8a", "search-held-out-queries-e8a.json", false],
    ["E8b", "search-held-out-queries-e8b.json", false],
    ["E8c", "search-held-out-queries-e8c.json", false],
    ["E9a", "search-held-out-queries-e9a.json", false],
    ["E9b", "search-held-out-queries-e9b.json", false],
    ["E9c", "search-held-out-queries-e9c.json", false],
    ["E10a", "search-held-out-queries-e10a.json", false],
    ["E10b", "search-held-out-queries-e10b.json", false],
    ["E10c", "search-held-out-queries-e10c.json", false],
  ];
  for (const [label, name, heldOut] of files) {
    const file = join(FIXTURES, name);
    if (heldOut && !withHeldOut) continue;
    if (existsSync(file)) sets.push(readQuerySet(label, file, heldOut));
  }
  return sets;
}

/**
 * Rewrites of a set's paraphrase requests by query id, written by an independent writer from the search_skills
 * description alone: the fixture copy (test/fixtures/search-rewrites-<set>.json) or the writer's file
 * (/work/query-sets/rewrites-<set>[-<persona>].json); {} when there is none.
 */
export function rewritesOf(label: string): Record<string, string[]> {
  const name = label.toLowerCase();
  const fixture = join(FIXTURES, `search-rewrites-${name}.json`);
  const shared = "/work/query-sets";
  const written = existsSync(shared)
    ? readdirSync(shared).find((file) => file === `rewrites-${name}.json` || file.startsWith(`rewrites-${name}-`))
    : undefined;
  const file = existsSync(fixture) ? fixture : written && join(shared, written);
  return file ? (JSON.parse(readFileSync(file, "utf8")) as { rewrites: Record<string, string[]> }).rewrites : {};
}
