// Reading a file back by the `ref` a command's result gave it (`workspace://out/report.md`, `artifact://name@2`): a
// window of at most a few hundred KiB, text only, read race-free from the workspace (never through a symlink) or from
// the thread's artifact store. trpc-agent-go reads an output file by its ref; this is that read.
import type { ArtifactStore } from "../artifacts/artifact-store.js";
import { isBinaryContent, splitRelativePath, withConfinedFolder } from "../internal/core.js";
import { refusal, type Refusal, type RefusalReason } from "../policy/refusal.js";
import { detectMimeType } from "./detect-mime-type.js";

/** Bytes one read returns when the call names no `max_bytes`. */
export const READ_OUTPUT_DEFAULT_BYTES = 32 * 1024;
/** The most bytes one read returns. */
export const READ_OUTPUT_MAX_BYTES = 256 * 1024;
/** The fewest bytes one read may ask for (a window always holds a whole UTF-8 character). */
export const READ_OUTPUT_MIN_BYTES = 16;

/** One read: the ref and the window of it. */
export interface OutputRead {
  ref: string;
  /** Byte to start at. @default 0 */
  offset?: number;
  /** Bytes to return at most. @default READ_OUTPUT_DEFAULT_BYTES */
  maxBytes?: number;
}

/** Where a read finds its bytes: the thread's workspace folder and artifact store. */
export interface OutputReadContext {
  workspaceDir: string;
  threadId: string;
  artifacts: ArtifactStore | undefined;
}

/** What the model gets back: the file's size and type, and the window as text (or why no text is shown). */
export interface OutputWindow {
  status: "ok";
  ref: string;
  size: number;
  mime_type?: string;
  offset: number;
  content?: string;
  binary?: true;
  note?: string;
  /** Where the next read starts, when the file goes on past this window. */
  next_offset?: number;
}

const confinedReasons: Partial<Record<string, RefusalReason>> = {
  "not-found": "not-found",
  symlink: "symlink-escape",
  "invalid-path": "path-traversal",
};

/** The window's bytes cut to whole UTF-8 characters: continuation bytes at the start skipped, a cut character at the end left for the next read. */
function wholeCharacters(bytes: Buffer, atEnd: boolean): { start: number; end: number } {
  let start = 0;
  while (start < Math.min(3, bytes.length) && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  let end = bytes.length;
  if (!atEnd) {
    // the last lead byte and how many bytes its character needs
    let lead = end - 1;
    while (lead > start && end - lead < 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead -= 1;
    const first = bytes[lead] as number;
    const needs = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    if (lead + needs > end) end = lead;
  }
  return { start, end };
}

/** The window as the model sees it: text with where to read on, or a note that the bytes are not text. */
function windowOf(ref: string, bytes: Buffer, at: { offset: number; size: number; mimeType?: string }): OutputWindow {
  const base = { status: "ok" as const, ref, size: at.size, ...(at.mimeType ? { mime_type: at.mimeType } : {}) };
  const { start, end } = wholeCharacters(bytes, at.offset + bytes.length >= at.size);
  const text = bytes.subarray(start, end);
  if (isBinaryContent(text, { complete: true }))
    return {
      ...base,
      offset: at.offset,
      binary: true,
      note: "not UTF-8 text, so not shown: stage it with inputs: [{ from: ref }] and run a program that reads it",
    };
  const next = at.offset + end;
  return {
    ...base,
    offset: at.offset + start,
    content: text.toString("utf8"),
    ...(next < at.size ? { next_offset: next } : {}),
  };
}

async function readWorkspaceRef(ref: string, relative: string, window: Window, context: OutputReadContext) {
  const parts = splitRelativePath(relative);
  if (!parts.ok || parts.names.length === 0)
    return refusal("path-traversal", `'${ref}': ${parts.ok ? "names no file" : parts.message}`);
  const read = await withConfinedFolder(context.workspaceDir, (folder) =>
    folder.readFile(relative, { maxBytes: Number.MAX_SAFE_INTEGER, offset: window.offset, headBytes: window.bytes }),
  ).catch(() => undefined);
  if (read === undefined) return refusal("not-found", `'${ref}': this thread has no workspace (nothing ran in it yet)`);
  if (!read.ok) return refusal(confinedReasons[read.reason] ?? "invalid-input", `'${ref}': ${read.message}`);
  const mimeType = window.offset === 0 ? detectMimeType(relative, read.bytes.subarray(0, 512)) : undefined;
  return windowOf(ref, read.bytes, { offset: window.offset, size: read.size, ...(mimeType ? { mimeType } : {}) });
}

async function readArtifactRef(ref: string, rest: string, window: Window, context: OutputReadContext) {
  if (!context.artifacts)
    return refusal("not-found", `'${ref}': no artifact store is configured, so no artifact can be read`);
  const versioned = /^([^@/]+)(?:@(\d+))?$/.exec(rest);
  const loaded = versioned
    ? await context.artifacts.load(
        context.threadId,
        versioned[1] as string,
        versioned[2] === undefined ? undefined : Number(versioned[2]),
      )
    : undefined;
  if (!loaded) return refusal("not-found", `'${ref}': no such artifact in this thread`);
  const bytes = loaded.bytes.subarray(window.offset, window.offset + window.bytes);
  return windowOf(ref, bytes, {
    offset: window.offset,
    size: loaded.bytes.byteLength,
    mimeType: loaded.artifact.mimeType,
  });
}

interface Window {
  offset: number;
  bytes: number;
}

/**
 * Reads a window of the file a ref names: `workspace://<path>` from the thread's workspace (through its descriptor,
 * never a symlink, the window read at its offset so a large file is never read whole) or `artifact://<name>[@<version>]`
 * from the thread's store. Text comes back cut to whole characters with `next_offset` when more follows; bytes that are
 * not UTF-8 text are not shown.
 */
export async function readOutputRef(input: OutputRead, context: OutputReadContext): Promise<OutputWindow | Refusal> {
  const window = {
    offset: input.offset ?? 0,
    bytes: Math.min(
      Math.max(input.maxBytes ?? READ_OUTPUT_DEFAULT_BYTES, READ_OUTPUT_MIN_BYTES),
      READ_OUTPUT_MAX_BYTES,
    ),
  };
  if (!Number.isSafeInteger(window.offset) || window.offset < 0)
    return refusal("invalid-input", "offset must be a whole number of bytes, 0 or more");
  const match = /^(workspace|artifact):\/\/(.+)$/.exec(String(input.ref));
  if (!match)
    return refusal(
      "invalid-input",
      `ref '${String(input.ref)}' must start with workspace:// or artifact:// (as output_files[].ref and artifacts[].ref do)`,
    );
  const [, scheme, rest] = match as unknown as [string, string, string];
  return scheme === "workspace"
    ? readWorkspaceRef(input.ref, rest, window, context)
    : readArtifactRef(input.ref, rest, window, context);
}
