import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, linkSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { openTrustedCacheFile } from "./trusted-cache-file.js";

// Cache files are served only when this user's skillgraph wrote them: each carries an HMAC under a per-user secret
// kept in the user's own cache folder (`$XDG_CACHE_HOME/skillgraph/cache-key`, else `~/.cache/skillgraph/cache-key`,
// mode 0600), which a repository cannot write nor read. A snapshot or search-index file shipped in a repository (or
// edited in place) has no valid MAC and is ignored. Where the key cannot be kept, a key for this process only is used:
// caches then serve only the process that wrote them.

/** First bytes of a signed cache file: `skillgraph-mac:<64 hex>\n`, then the payload. */
const MAC_PREFIX = "skillgraph-mac:";
const MAC_LINE_BYTES = MAC_PREFIX.length + 64 + 1;
const KEY_BYTES = 32;

let processKey: Buffer | undefined;
const keys = new Map<string, Buffer>();

/** Where this user's cache key is kept. */
export function cacheKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "skillgraph", "cache-key");
}

function readKey(file: string): Buffer | undefined {
  const opened = openTrustedCacheFile(file);
  if (!opened.ok) return undefined;
  try {
    // readable by others: they could sign a cache for this user
    if (opened.stats.size !== BigInt(KEY_BYTES) || (Number(opened.stats.mode) & 0o077) !== 0) return undefined;
    const key = Buffer.alloc(KEY_BYTES);
    return readSync(opened.fd, key, 0, KEY_BYTES, 0) === KEY_BYTES ? key : undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** Creates the key file once (a new file linked into place: two processes racing keep the first). */
function createKey(file: string): void {
  mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    writeSync(fd, randomBytes(KEY_BYTES));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temp);
  }
}

/** This user's cache key: read (or created) once per process; a process-only key when it cannot be kept. */
export function cacheKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const file = cacheKeyFile(env);
  const known = keys.get(file);
  if (known) return known;
  let key = readKey(file);
  if (!key) {
    try {
      createKey(file);
    } catch {
      // no writable cache folder: fall back below
    }
    key = readKey(file);
  }
  key ??= processKey ??= randomBytes(KEY_BYTES);
  keys.set(file, key);
  return key;
}

function mac(key: Buffer, payload: Buffer): Buffer {
  return createHmac("sha256", key).update(payload).digest();
}

/** The text of a cache file with its MAC line before it. */
export function signCacheText(text: string, key: Buffer = cacheKey()): string {
  return `${MAC_PREFIX}${mac(key, Buffer.from(text, "utf8")).toString("hex")}\n${text}`;
}

/** The bytes of a cache file with its MAC line before them. */
export function signCacheBytes(payload: Uint8Array, key: Buffer = cacheKey()): Buffer {
  const line = Buffer.from(
    `${MAC_PREFIX}${mac(key, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)).toString("hex")}\n`,
  );
  return Buffer.concat([line, payload]);
}

/** The payload of a signed cache file when its MAC is valid under this user's key, else undefined. */
export function verifiedCachePayload(bytes: Buffer, key: Buffer = cacheKey()): Buffer | undefined {
  if (bytes.length < MAC_LINE_BYTES || bytes.toString("latin1", 0, MAC_PREFIX.length) !== MAC_PREFIX) return undefined;
  if (bytes[MAC_LINE_BYTES - 1] !== 0x0a) return undefined;
  const claimed = Buffer.from(bytes.toString("latin1", MAC_PREFIX.length, MAC_LINE_BYTES - 1), "hex");
  const payload = bytes.subarray(MAC_LINE_BYTES);
  if (claimed.length !== 32) return undefined;
  return timingSafeEqual(claimed, mac(key, payload)) ? payload : undefined;
}
