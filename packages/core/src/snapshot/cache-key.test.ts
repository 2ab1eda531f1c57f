import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheKey, cacheKeyFile, signCacheText, verifiedCachePayload } from "./cache-key.js";

describe("the cache key and cache-file MACs", () => {
  it("creates the key once, 0600, in the user's cache folder, and reads the same key again", () => {
    const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "skillgraph-key-")) };
    const key = cacheKey(env);
    const file = cacheKeyFile(env);
    expect(file).toBe(join(env.XDG_CACHE_HOME, "skillgraph", "cache-key"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file)).toEqual(key);
    expect(cacheKey(env)).toBe(key);
  });

  it("accepts a payload signed with the key; refuses another key, an edited payload, no or a malformed MAC line", () => {
    const key = Buffer.alloc(32, 1);
    const signed = signCacheText('{"a":1}', key);
    expect(verifiedCachePayload(Buffer.from(signed), key)?.toString()).toBe('{"a":1}');
    expect(verifiedCachePayload(Buffer.from(signed), Buffer.alloc(32, 2))).toBeUndefined();
    expect(verifiedCachePayload(Buffer.from(signed.replace('"a":1', '"a":2')), key)).toBeUndefined();
    expect(verifiedCachePayload(Buffer.from('{"a":1}'), key)).toBeUndefined();
    expect(verifiedCachePayload(Buffer.from(signed.replace("\n", " ")), key)).toBeUndefined();
    expect(verifiedCachePayload(Buffer.from(`skillgraph-mac:${"z".repeat(64)}\n{}`), key)).toBeUndefined();
  });

  it.runIf(process.getuid?.() !== undefined)("does not use a key file others can read: a process key instead", () => {
    const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "skillgraph-key-")) };
    const planted = Buffer.alloc(32, 7);
    mkdirSync(join(env.XDG_CACHE_HOME, "skillgraph"), { mode: 0o700 });
    writeFileSync(cacheKeyFile(env), planted, { mode: 0o644 });
    expect(cacheKey(env).equals(planted)).toBe(false);
  });
});
