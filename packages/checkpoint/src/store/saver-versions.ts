import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { CheckpointerError } from "../errors/checkpointer-error.js";

/**
 * The official saver packages whose private fields (`db`, `pool`, `options`, `storage`) and table layouts this package
 * relies on (pruning SQL, lease tables beside theirs, the write fence on PostgresSaver's `BEGIN`), and the release
 * lines that were checked. A newer line may rename a field or a column and break pruning silently: refused instead.
 */
const CHECKED = {
  sqlite: { name: "@langchain/langgraph-checkpoint-sqlite", lines: ["1.0"] },
  postgres: { name: "@langchain/langgraph-checkpoint-postgres", lines: ["1.0"] },
} as const;

/** Saver packages whose internals are reached. */
export type CheckedSaver = keyof typeof CHECKED;

const installed = new Map<CheckedSaver, string | undefined>();

/** The version of the saver package this package resolves (the one `createCheckpointer` uses); undefined if unreadable. */
export function installedSaverVersion(kind: CheckedSaver): string | undefined {
  if (installed.has(kind)) return installed.get(kind);
  let version: string | undefined;
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(CHECKED[kind].name));
    for (let depth = 0; depth < 6 && version === undefined; depth += 1, dir = dirname(dir)) {
      const file = join(dir, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (manifest.name === CHECKED[kind].name) version = manifest.version;
    }
  } catch {
    version = undefined;
  }
  installed.set(kind, version);
  return version;
}

/**
 * Throws CheckpointerError `unsupported-saver` unless `version` of the saver package is on a release line this
 * package was checked against (its private fields and tables are used for pruning, leases and fencing).
 * @param kind Which saver.
 * @param version Its package version (e.g. "1.0.5").
 */
export function assertCheckedSaverVersion(kind: CheckedSaver, version: string | undefined): void {
  const { name, lines } = CHECKED[kind];
  const line = version?.split(".").slice(0, 2).join(".");
  if (line !== undefined && (lines as readonly string[]).includes(line)) return;
  throw new CheckpointerError({
    url: name,
    reason: "unsupported-saver",
    message:
      `${name} ${version ?? "(version unreadable)"} is not a release this package was checked against ` +
      `(${lines.map((l) => `${l}.x`).join(", ")}): pruning, storage figures and session leases read its private ` +
      `fields and write SQL against its tables, which a newer release may change. Install ${name}@${lines.at(-1)} ` +
      `or an @skillgraph/checkpoint that supports ${version}.`,
  });
}
