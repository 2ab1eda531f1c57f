import type { ArtifactStore } from "../artifacts/artifact-store.js";
import { nestedSkillFolder, splitRelativePath, withConfinedFolder } from "../internal/core.js";
import type { ConversationAttachment } from "./conversation-attachments.js";
import type { StagedFile } from "./thread-workspaces.js";

/** One declared input of a call: where the bytes come from and where they go in the workspace. */
export interface InputSpec {
  /**
   * `skill://<skill>/<path>`, `workspace://<path>`, `artifact://<name>[@<version>]`, `attachment://<name>` or
   * `host://<folder>/<path>` (a host folder the application lists in `hostInputs`).
   */
  from: string;
  /** Workspace path to stage it at. @default `in/<last segment of from>` */
  to?: string;
  /** For `artifact://<name>` without a version: the first version staged is used again by later pinned inputs. */
  pin?: boolean;
  /** `copy`, the only mode (trpc-agent-go's `link` is refused: the sandbox gets a copy, never the source itself). */
  mode?: string;
}

/** One file staged for a call, as its result reports it (`staged_inputs`): where from, where to, how large. */
export interface StagedInput {
  from: string;
  path: string;
  size: number;
}

/** What {@link resolveInputs} needs to reach each source. */
export interface InputContext {
  threadId: string;
  workspaceDir: string;
  /** Skills whose files may be read: the running skill and the loaded ones, by name. */
  skillDir(name: string): string | undefined;
  /**
   * Whether a skill's hard-linked files are refused (a hard link may be a file outside the skill under another name).
   * False only for installed npm packages, whose files package managers hard-link to a shared store. @default true
   */
  skillRefusesHardLinks?(name: string): boolean;
  artifacts: ArtifactStore | undefined;
  attachments: readonly ConversationAttachment[];
  /** Largest single input. */
  maxBytes: number;
  /** Largest sum of all inputs of the call. */
  budgetBytes: number;
  /** Host folders the application lists for `host://<name>/...` (read-only: copied in, never bound). */
  hostFolder?(name: string): string | undefined;
  /** The thread's pinned artifact versions by name (read and updated by `pin: true` inputs). */
  pinned?: Map<string, number>;
}

/** At most this many declared inputs per call. */
export const MAX_INPUTS = 32;

const fail = (message: string) => ({ ok: false as const, message });

/** One input found but not read yet: its size from metadata, and how to read it. */
interface PendingInput {
  from: string;
  to: string;
  size: number;
  read(maxBytes: number): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; message: string }>;
}

/** How a file input is read: symlinks followed inside the folder (skills), hard links refused (host folders). */
interface FileReadRules {
  follow: number;
  refuseHardLinks: boolean;
  /** A skill's folder: a file inside a nested skill's folder belongs to that skill and is refused. */
  skill: boolean;
}

/**
 * Reads (or, with `headBytes: 0`, only sizes) a file inside a folder, race-free on one descriptor walk; for a skill,
 * refuses a file whose resolved path lies in a nested skill's folder.
 */
async function confinedRead(folder: string, relative: string, rules: FileReadRules, maxBytes?: number) {
  return withConfinedFolder(folder, async (confined) => {
    const read = await confined.readFile(relative, {
      maxBytes: maxBytes ?? Number.MAX_SAFE_INTEGER,
      ...(maxBytes === undefined ? { headBytes: 0 } : {}),
      followInsideLinks: rules.follow,
      refuseHardLinks: rules.refuseHardLinks,
    });
    if (!read.ok || !rules.skill) return read;
    const nested = await nestedSkillFolder(confined, read.path);
    return nested === undefined ? read : fail(`'${nested}' is another skill's folder; its files are not this skill's`);
  });
}

async function pendingFileInput(
  input: InputSpec,
  { scheme, rest, to }: { scheme: "skill" | "workspace" | "host"; rest: string; to: string },
  context: InputContext,
): Promise<PendingInput | { ok: false; message: string }> {
  let folder = context.workspaceDir;
  let relative = rest;
  if (scheme === "skill" || scheme === "host") {
    const slash = rest.indexOf("/");
    const owner = slash === -1 ? rest : rest.slice(0, slash);
    const dir = scheme === "skill" ? context.skillDir(owner) : context.hostFolder?.(owner);
    if (!dir)
      return fail(
        scheme === "skill"
          ? `input '${input.from}': skill '${owner}' is not loaded (or has no folder)`
          : `input '${input.from}': '${owner}' is not a host folder the application lists (hostInputs)`,
      );
    folder = dir;
    relative = slash === -1 ? "" : rest.slice(slash + 1);
  }
  const parts = splitRelativePath(relative);
  if (!parts.ok || parts.names.length === 0)
    return fail(`input '${input.from}': ${parts.ok ? "names no file" : parts.message}`);
  // a hard link is the same file under another name, possibly outside the host folder the app lists or the skill
  const refuseHardLinks =
    scheme === "host" ||
    (scheme === "skill" && (context.skillRefusesHardLinks?.(rest.split("/")[0] as string) ?? true));
  const rules = { follow: scheme === "skill" ? 8 : 0, refuseHardLinks, skill: scheme === "skill" };
  const probed = await confinedRead(folder, relative, rules);
  if (!probed.ok) return fail(`input '${input.from}': ${probed.message}`);
  return {
    from: input.from,
    to,
    size: probed.size,
    read: async (maxBytes) => {
      const read = await confinedRead(folder, relative, rules, maxBytes);
      return read.ok ? { ok: true, bytes: read.bytes } : fail(`input '${input.from}': ${read.message}`);
    },
  };
}

async function pendingArtifactInput(
  input: InputSpec,
  rest: string,
  to: string,
  context: InputContext,
): Promise<PendingInput | { ok: false; message: string }> {
  const store = context.artifacts;
  if (!store)
    return fail(
      `input '${input.from}': no artifact store is configured (give the graph a store, or the hook an artifacts.store)`,
    );
  const versioned = /^([^@]+)(?:@(\d+))?$/.exec(rest);
  if (!versioned) return fail(`input '${input.from}': no such artifact in this thread`);
  const name = versioned[1] as string;
  const pinned = versioned[2] === undefined && input.pin ? context.pinned : undefined;
  const version = versioned[2] === undefined ? pinned?.get(name) : Number(versioned[2]);
  const missing = fail(`input '${input.from}': no such artifact in this thread`);
  if (store.describe) {
    const described = await store.describe(context.threadId, name, version);
    if (!described) return missing;
    pinned?.set(name, described.version);
    return {
      from: input.from,
      to,
      size: described.size,
      read: async () => {
        // the exact version described, so a newer save meanwhile cannot swap in other bytes
        const loaded = await store.load(context.threadId, name, described.version);
        return loaded ? { ok: true, bytes: loaded.bytes } : missing;
      },
    };
  }
  // a store without metadata: the bytes are its only answer
  const loaded = await store.load(context.threadId, name, version);
  if (!loaded) return missing;
  pinned?.set(name, loaded.artifact.version);
  return { from: input.from, to, size: loaded.bytes.byteLength, read: async () => ({ ok: true, bytes: loaded.bytes }) };
}

async function pendingInput(
  input: InputSpec,
  context: InputContext,
): Promise<PendingInput | { ok: false; message: string }> {
  const match = /^(skill|workspace|artifact|attachment|host):\/\/(.+)$/.exec(String(input.from));
  if (!match)
    return fail(
      `input '${String(input.from)}' must start with skill://, workspace://, artifact://, attachment:// or host://`,
    );
  if (input.mode !== undefined && input.mode !== "copy")
    return fail(
      input.mode === "link"
        ? `input '${input.from}': mode 'link' is not supported: inputs are copied into the workspace, so nothing a command does reaches the source; leave mode out (or give 'copy')`
        : `input '${input.from}': mode must be 'copy', not '${String(input.mode)}'`,
    );
  const [, scheme, rest] = match as unknown as [string, string, string];
  const lastSegment = rest.split("/").pop()?.replace(/@\d+$/, "") ?? "input";
  const to = input.to ?? `in/${lastSegment}`;
  if (scheme === "skill" || scheme === "workspace" || scheme === "host")
    return pendingFileInput(input, { scheme, rest, to }, context);
  if (scheme === "artifact") return pendingArtifactInput(input, rest, to, context);
  const attachment = context.attachments.find((candidate) => candidate.name === rest);
  if (!attachment) {
    const known = context.attachments.map((candidate) => candidate.name).join(", ") || "none";
    return fail(`input '${input.from}': no attachment of that name in the conversation (attached: ${known})`);
  }
  return { from: input.from, to, size: attachment.size, read: async () => ({ ok: true, bytes: attachment.bytes() }) };
}

/**
 * Resolves declared inputs to files to stage. First every source is found and sized from its metadata (fstat of the
 * confined file, the artifact's record, the attachment's base64 length) and the sizes are summed against
 * `context.budgetBytes`; only then is anything read, each source race-free (skill and workspace files through the
 * confined folder, never following a symlink out) and capped at the size it was found with. Nothing is staged here;
 * the first bad input fails the call.
 */
export async function resolveInputs(
  inputs: readonly InputSpec[],
  context: InputContext,
): Promise<{ ok: true; files: StagedFile[]; staged: StagedInput[] } | { ok: false; message: string }> {
  if (inputs.length > MAX_INPUTS) return fail(`at most ${MAX_INPUTS} inputs per call, not ${inputs.length}`);
  const pending: PendingInput[] = [];
  let total = 0;
  for (const input of inputs) {
    const found = await pendingInput(input, context);
    if ("ok" in found) return found;
    if (found.size > context.maxBytes)
      return fail(`input '${found.from}' is ${found.size} bytes, over the ${context.maxBytes}-byte limit`);
    total += found.size;
    if (total > context.budgetBytes)
      return fail(
        `the inputs come to more than ${context.budgetBytes} bytes (the staging budget of one call) by '${found.from}' (${found.size} bytes); nothing was read`,
      );
    pending.push(found);
  }
  const files: StagedFile[] = [];
  const staged: StagedInput[] = [];
  for (const input of pending) {
    const read = await input.read(input.size);
    if (!read.ok) return read;
    if (read.bytes.byteLength > input.size)
      return fail(`input '${input.from}' grew past the ${input.size} bytes it had when it was sized`);
    files.push({ path: input.to, content: read.bytes });
    staged.push({ from: input.from, path: input.to, size: read.bytes.byteLength });
  }
  return { ok: true, files, staged };
}
