import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ScriptedReply } from "./types.js";

/** A script stored in a file: `.json` (an array of replies, or `{ "replies": [...], "loop": true }`) or a JS/TS module whose default export is either. */
export async function scriptFromFile(file: string): Promise<{ script: ScriptedReply[]; loop: boolean }> {
  const path = resolve(file);
  const loaded: unknown = [".json", ""].includes(extname(path))
    ? JSON.parse(await readFile(path, "utf8"))
    : ((await import(pathToFileURL(path).href)) as { default: unknown }).default;
  const { replies, loop } = Array.isArray(loaded)
    ? { replies: loaded, loop: false }
    : ((loaded ?? {}) as { replies?: unknown; loop?: unknown });
  if (!Array.isArray(replies) || replies.length === 0)
    throw new TypeError(`${path}: expected a non-empty array of replies, or { "replies": [...] }`);
  return { script: replies as ScriptedReply[], loop: loop === true };
}
